<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ChatStats</name>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <source>%1 tokens/s</source>
        <translation>%1 token/秒</translation>
    </message>
    <message>
        <source>%1 tokens (prompt %2)</source>
        <translation>%1 个 token（提示词 %2）</translation>
    </message>
    <message>
        <source>%1 on this CPU</source>
        <translation>本机 CPU 上 %1</translation>
    </message>
    <message>
        <source>first token %1</source>
        <translation>首个 token %1</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>predicted: %1</source>
        <translation>预测：%1</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>token limit reached</source>
        <translation>已达 token 上限</translation>
    </message>
    <message>
        <source>context full</source>
        <translation>上下文已满</translation>
    </message>
    <message>
        <source>%1 tokens (prompt %2, %3 of them from the KV cache)</source>
        <translation>%1 个 token（提示 %2 个，其中 %3 个来自 KV 缓存）</translation>
    </message>
    <message>
        <source>the %1 oldest messages were left out to fit the context of %2 tokens</source>
        <translation>为适应 %2 个 token 的上下文，省略了最早的 %1 条消息</translation>
    </message>
    <message>
        <source>context full (%1 tokens)</source>
        <translation>上下文已满（%1 个 token）</translation>
    </message>
    <message>
        <source>reading the prompt: %1 of %2 tokens</source>
        <translation>正在读取提示词：%1 / %2 个 token</translation>
    </message>
    <message>
        <source>prompt read at %1</source>
        <translation>提示词读取速度 %1</translation>
    </message>
    <message>
        <source>%1 µs</source>
        <translation>%1 微秒</translation>
    </message>
</context>
<context>
    <name>Tour</name>
    <message>
        <source>A token&apos;s trip across the wafer</source>
        <translation>一个 token 穿越晶圆之旅</translation>
    </message>
    <message>
        <source>{model} in {precision} on {devices} × {hardware}: each colour is one layer&apos;s weights, held in the SRAM of the cores that compute with them.</source>
        <translation>{model}（{precision}）运行在 {devices} × {hardware} 上：每种颜色是一层的权重，存放在用它们计算的那些核心的 SRAM 中。</translation>
    </message>
    <message>
        <source>One token&apos;s trip: every layer in turn multiplies its weights where they sit, then hands a small vector to the next layer&apos;s cores.</source>
        <translation>一个 token 的旅程：每一层依次在权重所在之处做乘法，再把一个小向量交给下一层的核心。</translation>
    </message>
    <message>
        <source>One token takes {token_time} on the wafer: {tokens_per_second} tokens per second for one user, with no weight leaving the cores&apos; SRAM.</source>
        <translation>在晶圆上生成一个 token 需要 {token_time}：单用户每秒 {tokens_per_second} 个 token，权重始终留在核心的 SRAM 中。</translation>
    </message>
    <message>
        <source>Wafer, GPU and Groq on the same answer</source>
        <translation>同一个回答：晶圆、GPU 与 Groq</translation>
    </message>
    <message>
        <source>{model} on {devices} × {hardware}. Decoding one token reads every weight once, so memory bandwidth sets the pace.</source>
        <translation>{model} 运行在 {devices} × {hardware} 上。解码一个 token 要把每个权重读一遍，所以速度由内存带宽决定。</translation>
    </message>
    <message>
        <source>The same model on the wafer, on GPUs and on Groq: tokens per second per user, time to first token and energy per token, each with its range.</source>
        <translation>同一个模型在晶圆、GPU 和 Groq 上：单用户每秒 token 数、首 token 时间和每 token 能耗，各自附带范围。</translation>
    </message>
    <message>
        <source>The same answer, revealed at each system&apos;s predicted pace. The marker shows where a human reader would be.</source>
        <translation>同一个回答，按各系统的预测速度逐字显示。标记表示人类读者此时读到的位置。</translation>
    </message>
    <message>
        <source>Fastest here: {fastest} at {fastest_tokens_per_second} tokens/s per user; slowest: {slowest} at {slowest_tokens_per_second}.</source>
        <translation>这里最快的是 {fastest}，单用户每秒 {fastest_tokens_per_second} 个 token；最慢的是 {slowest}，每秒 {slowest_tokens_per_second} 个。</translation>
    </message>
    <message>
        <source>Defects and redundancy</source>
        <translation>缺陷与冗余</translation>
    </message>
    <message>
        <source>No wafer comes out of the fab perfect: some cores are dead. Spare cores are built in to take their place.</source>
        <translation>没有一片晶圆出厂时是完美的：总有一些核心是坏的。晶圆内置了备用核心来顶替它们。</translation>
    </message>
    <message>
        <source>{dead_cores} dead cores: the logical mesh shifts past them onto {spares_used} spare cores.</source>
        <translation>{dead_cores} 个坏核心：逻辑网格绕过它们，移到 {spares_used} 个备用核心上。</translation>
    </message>
    <message>
        <source>Up close: dead cores in red, logical cores shifted past them in blue.</source>
        <translation>近看：红色是坏核心，蓝色是绕过它们而移位的逻辑核心。</translation>
    </message>
    <message>
        <source>The token still flows across the repaired mesh.</source>
        <translation>token 依然在修复后的网格上流动。</translation>
    </message>
    <message>
        <source>Time per token: {token_time_before} on {devices_before} wafers with no dead core, {token_time_after} on {devices_after} wafers after the remap.</source>
        <translation>每个 token 的时间：没有坏核心时在 {devices_before} 片晶圆上为 {token_time_before}，重映射后在 {devices_after} 片晶圆上为 {token_time_after}。</translation>
    </message>
    <message>
        <source>Up close, layer 0 executed core by core by the mesh engine: orange cores multiply and add, blue ones pass partial sums on from core to core; the trails show where the data just travelled.</source>
        <translation>近看：网格引擎逐核心执行第 0 层。橙色核心在做乘加，蓝色核心把部分和逐核传下去；拖尾显示数据刚刚经过的路径。</translation>
    </message>
    <message>
        <source>The same layer&apos;s traffic, counted by the engine: each core coloured by the words that left its router for this token. Nearly every core forwards partial sums for its neighbours.</source>
        <translation>同一层的流量，由引擎逐一统计：每个核心按这个词元离开其路由器的字数着色。几乎每个核心都在为邻居转发部分和。</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Background task failed</source>
        <translation>后台任务失败</translation>
    </message>
    <message>
        <source>A background task failed: %1</source>
        <translation>后台任务失败：%1</translation>
    </message>
</context>
<context>
    <name>ws::AboutDialog</name>
    <message>
        <source>About WaferScope</source>
        <translation>关于 WaferScope</translation>
    </message>
    <message>
        <source>WaferScope</source>
        <translation>WaferScope</translation>
    </message>
    <message>
        <source>Libraries</source>
        <translation>库</translation>
    </message>
    <message>
        <source>Data sources</source>
        <translation>数据来源</translation>
    </message>
    <message>
        <source>&lt;h3&gt;WaferScope %1&lt;/h3&gt;&lt;p&gt;Built from git revision %2.&lt;/p&gt;&lt;p&gt;Places a transformer on the core mesh of a wafer-scale engine and shows what every core holds.&lt;/p&gt;&lt;p&gt;Every number comes from the engine and the cited presets and measurements; the Data sources tab lists where each came from.&lt;/p&gt;&lt;p&gt;Licence: %3. This program comes with absolutely no warranty.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;WaferScope %1&lt;/h3&gt;&lt;p&gt;构建自 git 修订版 %2。&lt;/p&gt;&lt;p&gt;把 Transformer 放到晶圆级引擎的核心网格上，显示每个核心存放的内容。&lt;/p&gt;&lt;p&gt;每个数字都来自引擎以及有出处的预设和测量数据；“数据来源”标签页列出了每项的出处。&lt;/p&gt;&lt;p&gt;许可证：%3。本程序不提供任何担保。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Library</source>
        <translation>库</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>许可证</translation>
    </message>
    <message>
        <source>Web site</source>
        <translation>网站</translation>
    </message>
    <message>
        <source>Versions are those loaded at run time where the library reports one. FFmpeg states its own licence, which depends on how it was built.</source>
        <translation>版本为运行时加载的版本（若该库提供）。FFmpeg 自行声明其许可证，取决于它的构建方式。</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Every shipped preset and measurement file, with the sources its numbers cite.</source>
        <translation>随程序提供的每个预设和测量数据文件，以及其中数字引用的出处。</translation>
    </message>
</context>
<context>
    <name>ws::Autosave</name>
    <message>
        <source>cannot create the autosave folder %1</source>
        <translation>无法创建自动保存文件夹 %1</translation>
    </message>
    <message>
        <source>another WaferScope is running; this window is not autosaved</source>
        <translation>另一个 WaferScope 正在运行；此窗口不会自动保存</translation>
    </message>
    <message>
        <source>cannot autosave to %1: %2</source>
        <translation>无法自动保存到 %1：%2</translation>
    </message>
    <message>
        <source>cannot mark the autosave as closed by %1: %2</source>
        <translation>无法将自动保存标记为由 %1 关闭：%2</translation>
    </message>
</context>
<context>
    <name>ws::CalibrationDialog</name>
    <message>
        <source>Fit a calibration profile</source>
        <translation>拟合校准配置</translation>
    </message>
    <message>
        <source>Name of the new profile</source>
        <translation>新校准配置的名称</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Model preset</source>
        <translation>模型预设</translation>
    </message>
    <message>
        <source>GPU preset</source>
        <translation>GPU 预设</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Users</source>
        <translation>用户数</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Measured tokens/s per user</source>
        <translation>实测每用户 token/秒</translation>
    </message>
    <message>
        <source>One decode measurement per row. Give either a context (decode only) or prompt and output lengths (continuous batching).</source>
        <translation>每行一条解码测量。请给出上下文长度（仅解码），或提示词与输出长度（连续批处理）。</translation>
    </message>
    <message>
        <source>Load measurement file…</source>
        <translation>载入测量文件…</translation>
    </message>
    <message>
        <source>Add row</source>
        <translation>添加一行</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>拟合</translation>
    </message>
    <message>
        <source>Add profile</source>
        <translation>添加校准配置</translation>
    </message>
    <message>
        <source>Profile name</source>
        <translation>配置名称</translation>
    </message>
    <message>
        <source>Measurements</source>
        <translation>测量数据</translation>
    </message>
    <message>
        <source>Fit: residual per measurement</source>
        <translation>拟合：每条测量的残差</translation>
    </message>
    <message>
        <source>Not a measurement file: %1 (at byte %2)</source>
        <translation>不是测量文件：%1（第 %2 字节）</translation>
    </message>
    <message>
        <source>Fitted from your measurements</source>
        <translation>由您的测量数据拟合</translation>
    </message>
    <message>
        <source>your measurements</source>
        <translation>您的测量数据</translation>
    </message>
    <message>
        <source>The fit failed: %1</source>
        <translation>拟合失败：%1</translation>
    </message>
    <message>
        <source>rms relative residual %1 %, worst %2 % over %3 measurements</source>
        <translation>相对残差均方根 %1 %，最大 %2 %，共 %3 条测量</translation>
    </message>
    <message>
        <source>Load measurements</source>
        <translation>载入测量数据</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON（*.json）</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
</context>
<context>
    <name>ws::ChartExport</name>
    <message>
        <source>Unknown export format “%1”: use .png, .svg, .csv or .json</source>
        <translation>未知的导出格式“%1”：请使用 .png、.svg、.csv 或 .json</translation>
    </message>
    <message>
        <source>Export “%1”</source>
        <translation>导出“%1”</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;CSV data (*.csv);;JSON data (*.json)</source>
        <translation>PNG 图像 (*.png);;SVG 矢量图 (*.svg);;CSV 数据 (*.csv);;JSON 数据 (*.json)</translation>
    </message>
    <message>
        <source>PNG scale</source>
        <translation>PNG 缩放</translation>
    </message>
    <message>
        <source>Pixels per screen pixel:</source>
        <translation>每个屏幕像素对应的像素数：</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
</context>
<context>
    <name>ws::ChatController</name>
    <message>
        <source>Could not open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
</context>
<context>
    <name>ws::CompareDock</name>
    <message>
        <source>A: %1</source>
        <translation>A：%1</translation>
    </message>
    <message>
        <source>B: %1</source>
        <translation>B：%1</translation>
    </message>
    <message>
        <source>Comparing…</source>
        <translation>正在比较…</translation>
    </message>
    <message>
        <source>Compare Layouts</source>
        <translation>比较布局</translation>
    </message>
    <message>
        <source>Layouts side by side</source>
        <translation>两个布局并排</translation>
    </message>
    <message>
        <source>SRAM difference per core (B − A)</source>
        <translation>每核心 SRAM 差值（B − A）</translation>
    </message>
    <message>
        <source>Time difference per region (B − A)</source>
        <translation>每区域时间差（B − A）</translation>
    </message>
    <message>
        <source>Side by side shows each layout&apos;s SRAM use; a difference mode colours B&apos;s cores by B − A (blue: B lower, red: B higher).</source>
        <translation>并排模式显示各布局的 SRAM 占用；差值模式按 B − A 为 B 的核心着色（蓝：B 更低，红：B 更高）。</translation>
    </message>
    <message>
        <source>Wafer</source>
        <translation>晶圆</translation>
    </message>
    <message>
        <source>A: not pinned yet (Explore &gt; Pin as A)</source>
        <translation>A：尚未固定（探索 &gt; 固定为 A）</translation>
    </message>
    <message>
        <source>B: the window&apos;s current layout</source>
        <translation>B：窗口当前的布局</translation>
    </message>
    <message>
        <source>Pin the current layout as A to compare it with the layouts that follow.</source>
        <translation>将当前布局固定为 A，以便与之后的布局比较。</translation>
    </message>
</context>
<context>
    <name>ws::CompareDocks</name>
    <message>
        <source>GPU, Groq and wafer compared</source>
        <translation>GPU、Groq 与晶圆级引擎对比</translation>
    </message>
    <message>
        <source>Token race</source>
        <translation>Token 竞速</translation>
    </message>
    <message>
        <source>GPU, Groq and wafer compared: %1</source>
        <translation>GPU、Groq 与晶圆级引擎对比：%1</translation>
    </message>
    <message>
        <source>Token race: %1</source>
        <translation>Token 竞速：%1</translation>
    </message>
</context>
<context>
    <name>ws::CompareFigures</name>
    <message>
        <source>your setting: $%1 per device-hour (preset: $%2)</source>
        <translation>你的设置：每设备小时 $%1（预设：$%2）</translation>
    </message>
    <message>
        <source>tokens/s per user</source>
        <translation>每用户 token/秒</translation>
    </message>
</context>
<context>
    <name>ws::CompareInputs</name>
    <message>
        <source>preset (no source given)</source>
        <translation>预设（未注明来源）</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>Hidden size</source>
        <translation>隐藏维度</translation>
    </message>
    <message>
        <source>FFN size</source>
        <translation>FFN 维度</translation>
    </message>
    <message>
        <source>Attention heads</source>
        <translation>注意力头数</translation>
    </message>
    <message>
        <source>KV heads</source>
        <translation>KV 头数</translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation>词表大小</translation>
    </message>
    <message>
        <source>Experts</source>
        <translation>专家数</translation>
    </message>
    <message>
        <source>Experts per token</source>
        <translation>每 token 激活专家数</translation>
    </message>
    <message>
        <source>Cores (mesh)</source>
        <translation>核心（网格）</translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>SRAM per core</source>
        <translation>每核心片上SRAM</translation>
    </message>
    <message>
        <source>KiB</source>
        <translation>KiB</translation>
    </message>
    <message>
        <source>Clock</source>
        <translation>时钟频率</translation>
    </message>
    <message>
        <source>GHz</source>
        <translation>GHz</translation>
    </message>
    <message>
        <source>Hop latency</source>
        <translation>单跳延迟</translation>
    </message>
    <message>
        <source>cycles</source>
        <translation>周期</translation>
    </message>
    <message>
        <source>System power</source>
        <translation>系统功耗</translation>
    </message>
    <message>
        <source>kW</source>
        <translation>kW</translation>
    </message>
    <message>
        <source>HBM</source>
        <translation>HBM 容量</translation>
    </message>
    <message>
        <source>GB</source>
        <translation>GB</translation>
    </message>
    <message>
        <source>HBM bandwidth</source>
        <translation>HBM 内存带宽</translation>
    </message>
    <message>
        <source>TB/s</source>
        <translation>TB/s</translation>
    </message>
    <message>
        <source>BF16 dense</source>
        <translation>BF16 稠密算力</translation>
    </message>
    <message>
        <source>TFLOPS</source>
        <translation>TFLOPS</translation>
    </message>
    <message>
        <source>NVLink</source>
        <translation>NVLink</translation>
    </message>
    <message>
        <source>GB/s</source>
        <translation>GB/s</translation>
    </message>
    <message>
        <source>Power per GPU</source>
        <translation>每 GPU 功耗</translation>
    </message>
    <message>
        <source>W</source>
        <translation>W</translation>
    </message>
    <message>
        <source>SRAM per chip</source>
        <translation>每芯片 SRAM</translation>
    </message>
    <message>
        <source>MB</source>
        <translation>MB</translation>
    </message>
    <message>
        <source>SRAM bandwidth</source>
        <translation>SRAM 带宽</translation>
    </message>
    <message>
        <source>Chip-to-chip links</source>
        <translation>芯片间链路</translation>
    </message>
    <message>
        <source>Power per chip</source>
        <translation>每芯片功耗</translation>
    </message>
    <message>
        <source>Workload</source>
        <translation>工作负载</translation>
    </message>
    <message>
        <source>your setting</source>
        <translation>您的设置</translation>
    </message>
    <message>
        <source>Users decoding at once</source>
        <translation>同时解码的用户数</translation>
    </message>
    <message>
        <source>Context in the KV cache</source>
        <translation>KV 缓存中的上下文</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 个 token</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>Agent workflow</source>
        <translation>智能体（Agent）工作流</translation>
    </message>
    <message>
        <source>%1 steps × %2 tokens</source>
        <translation>%1 轮 × %2 个 token</translation>
    </message>
    <message>
        <source>Chinese answer</source>
        <translation>中文回答</translation>
    </message>
    <message>
        <source>%1 characters</source>
        <translation>%1 个汉字</translation>
    </message>
    <message>
        <source>Tokens per Chinese character</source>
        <translation>每个汉字的 token 数</translation>
    </message>
    <message>
        <source>%1 – %2</source>
        <translation>%1 – %2</translation>
    </message>
    <message>
        <source>Human reading speed</source>
        <translation>人类阅读速度</translation>
    </message>
    <message>
        <source>%1 – %2 characters/min</source>
        <translation>每分钟 %1 – %2 字</translation>
    </message>
    <message>
        <source>engine default</source>
        <translation>引擎默认</translation>
    </message>
    <message>
        <source>Calibration profile</source>
        <translation>校准配置</translation>
    </message>
    <message>
        <source>KV cache (latent attention)</source>
        <translation>KV 缓存（潜在注意力）</translation>
    </message>
    <message>
        <source>%1 + %2 values per token per layer</source>
        <translation>每层每个词元 %1 + %2 个值</translation>
    </message>
    <message>
        <source>your setting (default: an example, 5 rounds × 500 tokens)</source>
        <translation>您的设置（默认值：示例，5 轮 × 500 个 token）</translation>
    </message>
    <message>
        <source>your setting (default: an example, a 1,000-character article)</source>
        <translation>您的设置（默认值：示例，一篇 1,000 字的文章）</translation>
    </message>
</context>
<context>
    <name>ws::ComparisonController</name>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>%1 for %2: %3 tokens/s per user after a %4 ms first token (engine prediction, profile %5)</source>
        <translation>%1 运行 %2：首个 token %4 毫秒后，每用户 %3 token/秒（引擎预测，校准配置 %5）</translation>
    </message>
    <message>
        <source>Text: %1. Paces: engine predictions for %2 at %3 user(s).</source>
        <translation>文本：%1。速度：%2 在 %3 个用户时的引擎预测。</translation>
    </message>
    <message>
        <source>the live chat answer</source>
        <translation>实时对话回答</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: %2: %3</source>
        <translation>%1：%2：%3</translation>
    </message>
    <message>
        <source>Add measurements</source>
        <translation>添加测量数据</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON（*.json）</translation>
    </message>
    <message>
        <source>The file was not added.
%1

A measurement file is JSON with an id, a kind (&quot;reference&quot; for figures to show, or a calibration kind) and rows, each with a model and hardware preset, a context or prompt and output lengths, a speed and a source.</source>
        <translation>文件未添加。
%1

测量文件是 JSON 格式，包含 id、kind（要显示的数据用 &quot;reference&quot;，或某种校准类型）和 rows；每行给出模型与硬件预设、上下文长度或提示与输出长度、速度以及来源。</translation>
    </message>
    <message>
        <source>Alibaba Cloud developer community, &apos;How are a large model&apos;s tokens counted?&apos;, https://developer.aliyun.com/ask/689758: one Qwen token is 1.5–1.8 Chinese characters [Tokens-per-Chinese-character]</source>
        <translation>阿里云开发者社区《大模型的token是怎么计算的？》，https://developer.aliyun.com/ask/689758：一个通义千问 token 约为 1.5–1.8 个汉字 [Tokens-per-Chinese-character]</translation>
    </message>
    <message>
        <source>Wang, Lin &amp; Guo, &apos;Visual requirement for Chinese reading with normal vision&apos;, Brain and Behavior 2019, https://doi.org/10.1002/brb3.1216: 259.5 ± 38.2 characters/min (30 readers, mean ± 1 SD) [Chinese-reading-rate]</source>
        <translation>Wang、Lin 与 Guo，《Visual requirement for Chinese reading with normal vision》，Brain and Behavior 2019，https://doi.org/10.1002/brb3.1216：每分钟 259.5 ± 38.2 字（30 名读者，均值 ± 1 个标准差）[Chinese-reading-rate]</translation>
    </message>
    <message>
        <source>238 words a minute, adults&apos; silent reading of English non-fiction (Brysbaert, Journal of Memory and Language 2019, https://doi.org/10.1016/j.jml.2019.104047 [Reading-rate]) × 4/3 tokens per word [Tokens-per-word]</source>
        <translation>每分钟 238 个词，成人默读英文非虚构文本的速度（Brysbaert，Journal of Memory and Language 2019，https://doi.org/10.1016/j.jml.2019.104047 [Reading-rate]）× 每词 4/3 个 token [Tokens-per-word]</translation>
    </message>
    <message>
        <source>%1, chosen here; the scenario shows %2</source>
        <translation>%1（在此选择；场景显示的是 %2）</translation>
    </message>
</context>
<context>
    <name>ws::DataflowDock</name>
    <message>
        <source>frame %1 ms</source>
        <translation>帧 %1 ms</translation>
    </message>
    <message>
        <source>KV capacity of layer 0&apos;s region (%1 × %2 cores): concat %3 tokens, shift %4 tokens</source>
        <translation>第 0 层区域（%1 × %2 核）的 KV 容量：拼接（concat）%3 个词元，移位（shift）%4 个词元</translation>
    </message>
    <message>
        <source>Dataflow</source>
        <translation>数据流</translation>
    </message>
    <message>
        <source>KV: shift</source>
        <translation>KV：shift（移位）</translation>
    </message>
    <message>
        <source>KV: concat</source>
        <translation>KV：拼接（concat）</translation>
    </message>
    <message>
        <source>KV cache layout: shift spreads the sequence over every row, concat fills one row</source>
        <translation>KV 缓存布局：移位（shift）把序列分布到每一行，拼接（concat）只填满一行</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>Phase cycles</source>
        <translation>阶段周期</translation>
    </message>
    <message>
        <source>Timing constants</source>
        <translation>时序常数</translation>
    </message>
    <message>
        <source>&amp;Play / Pause</source>
        <translation>播放/暂停(&amp;P)</translation>
    </message>
    <message>
        <source>Step &amp;Back</source>
        <translation>后退一步(&amp;B)</translation>
    </message>
    <message>
        <source>Step &amp;Forward</source>
        <translation>前进一步(&amp;F)</translation>
    </message>
    <message>
        <source>executing layer %1 on the mesh engine…</source>
        <translation>网格引擎正在执行第 %1 层…</translation>
    </message>
    <message>
        <source>layer %1 executed: %2 cycles (closed forms %3) · %4</source>
        <translation>第 %1 层已执行：%2 个周期（闭式公式 %3）· %4</translation>
    </message>
    <message>
        <source>Closed forms: whole token</source>
        <translation>闭式公式：整个词元</translation>
    </message>
    <message>
        <source>Mesh engine: one layer</source>
        <translation>网格引擎：单层</translation>
    </message>
    <message>
        <source>layer </source>
        <translation>层 </translation>
    </message>
    <message>
        <source>The layer the mesh engine executes</source>
        <translation>网格引擎执行的层</translation>
    </message>
    <message>
        <source>The mesh engine cannot run this layer: %1</source>
        <translation>网格引擎无法运行这一层：%1</translation>
    </message>
    <message>
        <source>↓ %1 per token
%2% of its time</source>
        <translation>↓ 每个词元 %1
占其时间 %2%</translation>
    </message>
    <message>
        <source>Wafer %1 to wafer %2: the hidden state (%3 values of %4 bytes) crosses the wafer-to-wafer link once per token, %5 cycles of the token&apos;s %6 (the closed forms&apos; schedule, with the preset&apos;s system I/O bandwidth and latency).</source>
        <translation>晶圆 %1 到晶圆 %2：隐藏状态（%3 个值，每个 %4 字节）每个词元经过一次晶圆间链路，占该词元 %6 个周期中的 %5 个（闭式公式调度，采用预设的系统 I/O 带宽与延迟）。</translation>
    </message>
    <message>
        <source>computing the values of &quot;%1&quot; on the mesh engine, layer %2 timed…</source>
        <translation>网格引擎正在计算“%1”的数值，并为第 %2 层计时…</translation>
    </message>
    <message>
        <source> · values of token %1 of &quot;%2&quot;</source>
        <translation> · “%2”第 %1 个词元的数值</translation>
    </message>
    <message>
        <source>The Values layer needs a model&apos;s weights: open a GGUF model in the chat and show &quot;the loaded model&quot; on the wafer.</source>
        <translation>数值图层需要模型的权重：在聊天中打开一个 GGUF 模型，并让晶圆显示“已加载的模型”。</translation>
    </message>
    <message>
        <source>The Values layer needs the weights of the model on the wafer (%1); the chat&apos;s model is %2: show &quot;the loaded model&quot; on the wafer.</source>
        <translation>数值图层需要晶圆上那个模型（%1）的权重；聊天中的模型是 %2：请让晶圆显示“已加载的模型”。</translation>
    </message>
    <message>
        <source>Closed forms: the prompt (prefill)</source>
        <translation>闭式公式：提示词（预填充）</translation>
    </message>
    <message>
        <source>Closed forms: the token&apos;s schedule region by region, timed with the calibrated constants.
Mesh engine: one layer executed core by core as discrete events with the hardware preset&apos;s core and link parameters; a core lights while it computes, a message along the cores of its route.
Prefill: the scenario&apos;s prompt in chunks pipelined through the layers, then the first token, lasting the predictor&apos;s time to first token.</source>
        <translation>闭式公式：按区域展示该 token 的调度，用校准后的常数计时。
网格引擎：按核心以离散事件执行一层，采用硬件预设的核心与链路参数；核心计算时点亮，消息沿其路由经过的核心点亮。
预填充：场景的提示词分块以流水线方式流经各层，随后生成首 token，总时长为预测器给出的首 token 延迟。</translation>
    </message>
    <message>
        <source>Prefill of %1 tokens: first token at %2 ms (%3 – %4), the prompt in %5 chunks of %6 pipelined through %7 layers</source>
        <translation>预填充 %1 个 token：首 token 在 %2 毫秒（%3 – %4），提示词分成 %5 块（每块 %6 个），以流水线方式流经 %7 层</translation>
    </message>
    <message>
        <source>Prefill of %1 tokens: first token at %2 ms (%3 – %4), the prompt as one chunk through %5 layers</source>
        <translation>预填充 %1 个 token：首 token 在 %2 毫秒（%3 – %4），提示词作为一块流经 %5 层</translation>
    </message>
    <message>
        <source>Time to first token on the wafer, the predictor&apos;s (as in the Compare mode): the timing model&apos;s schedule of the prompt, in chunks of %1 tokens pipelined through the placement&apos;s layer regions (%2 cycles at %3 GHz with the constants of profile %4 and the kernel factor %5 of the serving stack %6), stretched %7× to the pace fitted on WaferLLM&apos;s measured prefill.
%8
Source: %9</source>
        <translation>晶圆上的首 token 延迟，即预测器给出的值（与对比模式相同）：时序模型对提示词的调度，每块 %1 个 token，以流水线方式流经布局中的各层区域（%2 个周期，时钟 %3 GHz，采用配置 %4 的常数及服务栈 %6 的内核系数 %5），再拉长 %7 倍，符合根据 WaferLLM 实测预填充拟合出的速度。
%8
来源：%9</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source> (its last %1 decoded)</source>
        <translation>（解码其最后 %1 个词元）</translation>
    </message>
</context>
<context>
    <name>ws::DefectsDock</name>
    <message>
        <source>Defects</source>
        <translation>缺陷</translation>
    </message>
</context>
<context>
    <name>ws::DownloadDialog</name>
    <message>
        <source>Download</source>
        <translation>下载</translation>
    </message>
    <message>
        <source>Cancel Download</source>
        <translation>取消下载</translation>
    </message>
    <message>
        <source>Download Model</source>
        <translation>下载模型</translation>
    </message>
    <message>
        <source>https://…/model.gguf</source>
        <translation>https://…/model.gguf</translation>
    </message>
    <message>
        <source>optional: 64 hexadecimal digits</source>
        <translation>可选：64 位十六进制数字</translation>
    </message>
    <message>
        <source>Saved in %1</source>
        <translation>保存到 %1</translation>
    </message>
    <message>
        <source>Address (GGUF or llama2.c file):</source>
        <translation>地址（GGUF 或 llama2.c 文件）：</translation>
    </message>
    <message>
        <source>SHA-256 checksum:</source>
        <translation>SHA-256 校验和：</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Done: %1
SHA-256 %2</source>
        <translation>完成：%1
SHA-256 %2</translation>
    </message>
    <message>
        <source>%1
Press Resume to continue where it stopped.</source>
        <translation>%1
按“继续”从中断处接着下载。</translation>
    </message>
    <message>
        <source>Cancelled. Press Resume to continue later.</source>
        <translation>已取消。稍后可按“继续”接着下载。</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>正在连接…</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
</context>
<context>
    <name>ws::Exporter</name>
    <message>
        <source>cannot encode the image as PNG for %1</source>
        <translation>无法将图像编码为 PNG 以写入 %1</translation>
    </message>
    <message>
        <source>scale must be from %1 to %2, got %3</source>
        <translation>缩放比例必须在 %1 到 %2 之间，实际为 %3</translation>
    </message>
    <message>
        <source>Exported from WaferScope</source>
        <translation>由 WaferScope 导出</translation>
    </message>
    <message>
        <source>cannot draw the view as SVG for %1</source>
        <translation>无法将视图绘制为 SVG 以写入 %1</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>ws::FfmpegWriter</name>
    <message>
        <source>FFmpeg cannot write %1 files: %2</source>
        <translation>FFmpeg 无法写入 %1 文件：%2</translation>
    </message>
    <message>
        <source>FFmpeg was built without the %1 encoder</source>
        <translation>FFmpeg 构建时未包含 %1 编码器</translation>
    </message>
    <message>
        <source>out of memory while setting up the video encoder</source>
        <translation>设置视频编码器时内存不足</translation>
    </message>
    <message>
        <source>cannot start the %1 encoder: %2</source>
        <translation>无法启动 %1 编码器：%2</translation>
    </message>
    <message>
        <source>cannot write the video header: %1</source>
        <translation>无法写入视频文件头：%1</translation>
    </message>
    <message>
        <source>cannot set up the colour conversion for the video</source>
        <translation>无法设置视频的颜色转换</translation>
    </message>
    <message>
        <source>video encoder error: %1</source>
        <translation>视频编码器错误：%1</translation>
    </message>
    <message>
        <source>cannot write video data: %1</source>
        <translation>无法写入视频数据：%1</translation>
    </message>
    <message>
        <source>cannot finish the video file: %1</source>
        <translation>无法完成视频文件：%1</translation>
    </message>
</context>
<context>
    <name>ws::FigureDialog</name>
    <message>
        <source>Slide, 16:9</source>
        <translation>幻灯片，16:9</translation>
    </message>
    <message>
        <source>Slide, 4:3</source>
        <translation>幻灯片，4:3</translation>
    </message>
    <message>
        <source>Paper, full width</source>
        <translation>论文，通栏</translation>
    </message>
    <message>
        <source>Paper, one column</source>
        <translation>论文，单栏</translation>
    </message>
    <message>
        <source>Export Figure</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>Every wafer (%1)</source>
        <translation>全部晶圆（%1 片）</translation>
    </message>
    <message>
        <source>&amp;Wafers:</source>
        <translation>晶圆(&amp;W)：</translation>
    </message>
    <message>
        <source>%1 (%2 × %3 mm)</source>
        <translation>%1（%2 × %3 毫米）</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source>&amp;Page:</source>
        <translation>页面(&amp;P)：</translation>
    </message>
    <message>
        <source> mm</source>
        <translation> 毫米</translation>
    </message>
    <message>
        <source>W&amp;idth:</source>
        <translation>宽度(&amp;I)：</translation>
    </message>
    <message>
        <source>H&amp;eight:</source>
        <translation>高度(&amp;E)：</translation>
    </message>
    <message>
        <source> dots per inch</source>
        <translation> 点/英寸</translation>
    </message>
    <message>
        <source>&amp;Resolution:</source>
        <translation>分辨率(&amp;R)：</translation>
    </message>
    <message>
        <source>&amp;Title:</source>
        <translation>标题(&amp;T)：</translation>
    </message>
    <message>
        <source>S&amp;ource line:</source>
        <translation>来源行(&amp;O)：</translation>
    </message>
    <message>
        <source>Preview of the figure</source>
        <translation>图表预览</translation>
    </message>
    <message>
        <source>&amp;Save…</source>
        <translation>保存(&amp;S)…</translation>
    </message>
    <message>
        <source>SVG: every core a vector rectangle (%1 pixels per core at this resolution).</source>
        <translation>SVG：每个核心都是矢量矩形（此分辨率下每核心 %1 像素）。</translation>
    </message>
    <message>
        <source>SVG: each wafer an image of one pixel per core (cores are smaller than a pixel at this resolution).</source>
        <translation>SVG：每片晶圆为一幅每核心一像素的图像（此分辨率下核心小于一个像素）。</translation>
    </message>
    <message>
        <source>PNG: %1 × %2 pixels.</source>
        <translation>PNG：%1 × %2 像素。</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg)</source>
        <translation>PNG 图像 (*.png);;SVG 矢量图 (*.svg)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>ws::FigureExport</name>
    <message>
        <source>%1 (%2) on %3 × %4: %5</source>
        <translation>%1（%2）在 %3 × %4 上：%5</translation>
    </message>
    <message>
        <source>%1 · placed by its engine at a %2-token context · %3 × %4 cores per wafer, %5 SRAM per core</source>
        <translation>%1 · 由其引擎按 %2 词元上下文布局 · 每片晶圆 %3 × %4 个核心，每核心 %5 SRAM</translation>
    </message>
    <message>
        <source> [%1] (docs/sources.md)</source>
        <translation> [%1]（docs/sources.md）</translation>
    </message>
    <message>
        <source>there is no placement to draw into %1</source>
        <translation>没有可绘制到 %1 的布局</translation>
    </message>
    <message>
        <source>%1: choose a .png or .svg file name for a figure</source>
        <translation>%1：图表请选择 .png 或 .svg 文件名</translation>
    </message>
</context>
<context>
    <name>ws::FileMenuController</name>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>新建(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <source>%1 as PNG…</source>
        <translation>%1 导出为 PNG…</translation>
    </message>
    <message>
        <source>%1 as SVG…</source>
        <translation>%1 导出为 SVG…</translation>
    </message>
    <message>
        <source>Export %1</source>
        <translation>导出%1</translation>
    </message>
    <message>
        <source>SVG images (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>%1 as CSV or JSON…</source>
        <translation>%1 导出为 CSV 或 JSON…</translation>
    </message>
    <message>
        <source>Nothing to export yet</source>
        <translation>暂无可导出的内容</translation>
    </message>
    <message>
        <source>&amp;Record…</source>
        <translation>录制(&amp;R)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Recover Scenario</source>
        <translation>恢复场景</translation>
    </message>
    <message>
        <source>WaferScope did not close normally last time. Recover the scenario it was showing?</source>
        <translation>WaferScope 上次未正常关闭。是否恢复当时显示的场景？</translation>
    </message>
    <message>
        <source>Recovered the autosaved scenario</source>
        <translation>已恢复自动保存的场景</translation>
    </message>
    <message>
        <source>Open a .waferscope scenario.</source>
        <translation>打开 .waferscope 场景。</translation>
    </message>
    <message>
        <source>file</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Recover an autosaved scenario without asking.</source>
        <translation>不经询问直接恢复自动保存的场景。</translation>
    </message>
    <message>
        <source>Write the scenario (after opening or recovering) to a file and exit.</source>
        <translation>将场景（打开或恢复之后）写入文件并退出。</translation>
    </message>
    <message>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>%1[*] — WaferScope</source>
        <translation>%1[*] — WaferScope</translation>
    </message>
    <message>
        <source>Open Scenario</source>
        <translation>打开场景</translation>
    </message>
    <message>
        <source>WaferScope scenarios (*.waferscope);;All files (*)</source>
        <translation>WaferScope 场景 (*.waferscope);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Save Scenario</source>
        <translation>保存场景</translation>
    </message>
    <message>
        <source>WaferScope scenarios (*.waferscope)</source>
        <translation>WaferScope 场景 (*.waferscope)</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Unsaved Changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>The scenario has been modified. Save your changes?</source>
        <translation>场景已修改。是否保存更改？</translation>
    </message>
    <message>
        <source>No recent scenarios</source>
        <translation>没有最近的场景</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>CSV files (*.csv);;JSON files (*.json)</source>
        <translation>CSV 文件 (*.csv);;JSON 文件 (*.json)</translation>
    </message>
    <message>
        <source>Record</source>
        <translation>录制</translation>
    </message>
    <message>
        <source>There is nothing to record yet.</source>
        <translation>暂无可录制的内容。</translation>
    </message>
    <message>
        <source>%1 (*.%2)</source>
        <translation>%1 (*.%2)</translation>
    </message>
    <message>
        <source>Recording %1…</source>
        <translation>正在录制 %1…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Recorded %1</source>
        <translation>已录制 %1</translation>
    </message>
    <message>
        <source>SRAM map (per core)</source>
        <translation>SRAM 分布（逐核心）</translation>
    </message>
    <message>
        <source>Token schedule (per-phase timings)</source>
        <translation>词元调度（各阶段耗时）</translation>
    </message>
    <message>
        <source>Prediction</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>Prediction breakdown</source>
        <translation>预测分解</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <source>Restored the unsaved scenario of the session %1 closed</source>
        <translation>已恢复被 %1 关闭的会话中未保存的场景</translation>
    </message>
    <message>
        <source>the autosaved scenario</source>
        <translation>自动保存的场景</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n value(s) could not be used as written</source>
        <translation>
            <numerusform>%1：有 %n 个值无法按原样使用</numerusform>
        </translation>
    </message>
    <message>
        <source>WaferScope could not use every value of %1 as written and shows instead:

%2</source>
        <translation>WaferScope 无法按原样使用 %1 中的所有值，现在显示的是：

%2</translation>
    </message>
    <message>
        <source>Export &amp;Figure…</source>
        <translation>导出图表(&amp;F)…</translation>
    </message>
    <message>
        <source>Sharpness: pixels in the file for each pixel on screen (2 draws it twice as wide and high):</source>
        <translation>清晰度：屏幕上每个像素在文件中对应的像素数（2 表示宽和高各为两倍）：</translation>
    </message>
    <message>
        <source>Export Figure</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>There is no placement to draw yet.</source>
        <translation>暂无可绘制的布局。</translation>
    </message>
    <message>
        <source>Another data export is still being written: wait for it or cancel it first.</source>
        <translation>另一个数据导出仍在写入：请等待其完成或先取消。</translation>
    </message>
    <message>
        <source>Exporting %1…</source>
        <translation>正在导出 %1…</translation>
    </message>
    <message>
        <source>Exporting %1: %2 of %3 rows</source>
        <translation>正在导出 %1：第 %2 行，共 %3 行</translation>
    </message>
    <message>
        <source>Export cancelled: %1 was not written</source>
        <translation>导出已取消：未写入 %1</translation>
    </message>
</context>
<context>
    <name>ws::FrameComposer</name>
    <message>
        <source>Prompt</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>回答</translation>
    </message>
</context>
<context>
    <name>ws::GifWriter</name>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>cannot start the GIF file</source>
        <translation>无法创建 GIF 文件</translation>
    </message>
    <message>
        <source>out of memory while setting up the GIF palette</source>
        <translation>设置 GIF 调色板时内存不足</translation>
    </message>
    <message>
        <source>cannot write the GIF header</source>
        <translation>无法写入 GIF 文件头</translation>
    </message>
    <message>
        <source>cannot write GIF frame %1</source>
        <translation>无法写入 GIF 第 %1 帧</translation>
    </message>
    <message>
        <source>cannot finish the GIF file</source>
        <translation>无法完成 GIF 文件</translation>
    </message>
</context>
<context>
    <name>ws::InspectorDock</name>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Inspector</source>
        <translation>检查器</translation>
    </message>
    <message>
        <source>Property</source>
        <translation>属性</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>No placement</source>
        <translation>无放置结果</translation>
    </message>
    <message>
        <source>Choose a model and wafer hardware above.</source>
        <translation>请在上方选择模型和晶圆硬件。</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Architecture from the model preset (%1 layers, hidden size %2).</source>
        <translation>架构来自模型预设（%1 层，隐藏维度 %2）。</translation>
    </message>
    <message>
        <source>Hardware</source>
        <translation>硬件</translation>
    </message>
    <message>
        <source>Hardware preset &apos;%1&apos;.</source>
        <translation>硬件预设“%1”。</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 个 token</translation>
    </message>
    <message>
        <source>KV cache is sized for this many tokens per layer.</source>
        <translation>KV 缓存按每层这么多个 token 分配。</translation>
    </message>
    <message>
        <source>Devices used</source>
        <translation>使用设备数</translation>
    </message>
    <message>
        <source>The fewest wafers that hold the model&apos;s weights and KV cache, from the engine&apos;s placement.</source>
        <translation>容纳模型权重和 KV 缓存所需的最少晶圆数，来自引擎的放置结果。</translation>
    </message>
    <message>
        <source>Mesh per wafer</source>
        <translation>每片晶圆的网格</translation>
    </message>
    <message>
        <source>%1 × %2 cores</source>
        <translation>%1 × %2 个核心</translation>
    </message>
    <message>
        <source>Logical fabric as the SDK exposes it. Source: %1</source>
        <translation>SDK 提供的逻辑网格。来源：%1</translation>
    </message>
    <message>
        <source>SRAM per core</source>
        <translation>每核片上SRAM</translation>
    </message>
    <message>
        <source>Source: %1</source>
        <translation>来源：%1</translation>
    </message>
    <message>
        <source>SRAM used</source>
        <translation>已用 SRAM</translation>
    </message>
    <message>
        <source>%1 of %2 (%3%)</source>
        <translation>%1 / %2（%3%）</translation>
    </message>
    <message>
        <source>Bytes the placement puts on cores (weights and KV cache), summed over all wafers, against the SRAM of all their cores.</source>
        <translation>放置到各核心上的字节（权重和 KV 缓存），对所有晶圆求和，与这些晶圆全部核心的 SRAM 总量相比。</translation>
    </message>
    <message>
        <source>Layers per wafer</source>
        <translation>每片晶圆的层数</translation>
    </message>
    <message>
        <source>Transformer layers the placement puts on each wafer, in order.</source>
        <translation>按顺序放置到每片晶圆上的 Transformer 层数。</translation>
    </message>
    <message>
        <source>Core</source>
        <translation>核心</translation>
    </message>
    <message>
        <source>Selection</source>
        <translation>选择</translation>
    </message>
    <message>
        <source>Click a core on the heatmap</source>
        <translation>在热力图上点击一个核心</translation>
    </message>
    <message>
        <source>Details come from the engine&apos;s placement.</source>
        <translation>详细信息来自引擎的放置结果。</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Wafer</source>
        <translation>晶圆</translation>
    </message>
    <message>
        <source>Logical (x, y)</source>
        <translation>逻辑坐标 (x, y)</translation>
    </message>
    <message>
        <source>Position in the healthy rectangular mesh software sees.</source>
        <translation>在软件可见的健康矩形网格中的位置。</translation>
    </message>
    <message>
        <source>Physical (x, y)</source>
        <translation>物理坐标 (x, y)</translation>
    </message>
    <message>
        <source>Holds</source>
        <translation>存放</translation>
    </message>
    <message>
        <source>nothing placed</source>
        <translation>未放置内容</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>none (embedding or LM head)</source>
        <translation>无（嵌入层或 LM 输出头）</translation>
    </message>
    <message>
        <source>Transformer layer whose data this core holds.</source>
        <translation>该核心存放其数据的 Transformer 层。</translation>
    </message>
    <message>
        <source>Matrix</source>
        <translation>矩阵</translation>
    </message>
    <message>
        <source>Tensor kind, as named in GGUF files.</source>
        <translation>张量类型，沿用 GGUF 文件中的命名。</translation>
    </message>
    <message>
        <source>Matrix tile</source>
        <translation>矩阵分块</translation>
    </message>
    <message>
        <source>Bytes: %1</source>
        <translation>字节：%1</translation>
    </message>
    <message>
        <source>Bytes of this kind on the core, from the engine&apos;s per-core SRAM map.</source>
        <translation>该核心上此类数据的字节数，来自引擎的逐核 SRAM 映射。</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>All bytes on this core against its SRAM.</source>
        <translation>该核心上的全部字节与其 SRAM 容量之比。</translation>
    </message>
    <message>
        <source>activation buffers</source>
        <translation>激活缓冲区</translation>
    </message>
    <message>
        <source>program and runtime</source>
        <translation>程序和运行时</translation>
    </message>
    <message>
        <source>Placement (x, y)</source>
        <translation>放置坐标 (x, y)</translation>
    </message>
    <message>
        <source>Position inside the application rectangle: the mesh minus the cores reserved for host I/O.</source>
        <translation>在应用矩形内的位置：网格去掉为主机 I/O 保留的核心。</translation>
    </message>
    <message>
        <source>reserved for host I/O</source>
        <translation>为主机 I/O 保留</translation>
    </message>
    <message>
        <source>The fabric border the SDK keeps for memcpy host I/O; applications do not use it.</source>
        <translation>SDK 为 memcpy 主机 I/O 保留的网格边缘；应用程序不使用。</translation>
    </message>
    <message>
        <source>Position on the silicon grid, spare cores included, from the redundancy remap (no defects injected).</source>
        <translation>在硅片网格上的位置（含备用核心），来自冗余重映射（未注入缺陷）。</translation>
    </message>
    <message>
        <source>Output rows and input values of the matrix this core holds (half-open ranges).</source>
        <translation>该核心存放的矩阵输出行和输入值（半开区间）。</translation>
    </message>
    <message>
        <source>Tokens and K|V columns of the layer&apos;s KV cache this core holds.</source>
        <translation>该核心存放的本层 KV 缓存的 token 范围和 K|V 列。</translation>
    </message>
    <message>
        <source>draft model %1 (speculative decoding)</source>
        <translation>草稿模型 %1（推测解码）</translation>
    </message>
    <message>
        <source>The draft model holds its own strip of cores beside the target; layer and tiles below are the draft&apos;s.</source>
        <translation>草稿模型在目标模型旁边占有自己的一条核心；下面的层和分块属于草稿模型。</translation>
    </message>
    <message>
        <source>Storage precision of the weights, including block scales for int8, int4 and fp4 (MXFP4).</source>
        <translation>权重的存储精度，int8、int4 和 fp4（MXFP4）含分块缩放因子。</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Defects</source>
        <translation>缺陷</translation>
    </message>
    <message>
        <source>The scenario&apos;s defects could not be remapped; the rows below describe the last placement that fits.</source>
        <translation>场景中的缺陷无法重新映射；下面各行描述的是最后一个可容纳的放置。</translation>
    </message>
    <message>
        <source>Mesh engine: layer %1</source>
        <translation>网格引擎：第 %1 层</translation>
    </message>
    <message>
        <source>Took part</source>
        <translation>是否参与</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>The engine ran layer %1 only; this core holds none of its tiles and no message crossed it.</source>
        <translation>引擎只运行了第 %1 层；此核心不持有该层的任何分块，也没有消息经过它。</translation>
    </message>
    <message>
        <source>%1 cycles (%2%)</source>
        <translation>%1 个周期（%2%）</translation>
    </message>
    <message>
        <source>From the mesh engine&apos;s events for this core: %1 cycles in the run.</source>
        <translation>来自网格引擎对此核心记录的事件：本次运行共 %1 个周期。</translation>
    </message>
    <message>
        <source>Busy</source>
        <translation>忙碌</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>busy %1 · waiting %2</source>
        <translation>忙碌 %1 · 等待 %2</translation>
    </message>
    <message>
        <source>Cycles of this phase kind the core computed, and waited for an input.</source>
        <translation>此核心在该类阶段中计算的周期数，以及等待输入的周期数。</translation>
    </message>
    <message>
        <source>Messages out</source>
        <translation>发出的消息</translation>
    </message>
    <message>
        <source>%1 · %2 words</source>
        <translation>%1 · %2 字</translation>
    </message>
    <message>
        <source>Messages this core sent (its partial sums, a multicast&apos;s copies, the hidden state onwards).</source>
        <translation>此核心发出的消息（它的部分和、多播的副本、向后传递的隐藏状态）。</translation>
    </message>
    <message>
        <source>Messages in</source>
        <translation>收到的消息</translation>
    </message>
    <message>
        <source>Messages that ended at this core.</source>
        <translation>终点为此核心的消息。</translation>
    </message>
    <message>
        <source>Router words</source>
        <translation>路由器字数</translation>
    </message>
    <message>
        <source>Words that left this core&apos;s router on its four links: its own and those it forwarded (the Links layer).</source>
        <translation>经四条链路离开此核心路由器的字数：包括它自己的和它转发的（链路图层）。</translation>
    </message>
    <message>
        <source>Computed from the loaded model&apos;s weights for the token shown on the Values layer.</source>
        <translation>由已加载模型的权重为数值图层所示的词元计算得出。</translation>
    </message>
    <message>
        <source>Sum of partial products</source>
        <translation>部分积之和</translation>
    </message>
    <message>
        <source>Sum of |partial products|</source>
        <translation>|部分积| 之和</translation>
    </message>
</context>
<context>
    <name>ws::LayoutDock</name>
    <message>
        <source>Time per token: %1 ms</source>
        <translation>每词元时间：%1 毫秒</translation>
    </message>
    <message>
        <source>Tokens/s per user: %1</source>
        <translation>每用户词元/秒：%1</translation>
    </message>
    <message>
        <source>Time to first token: %1 ms</source>
        <translation>首词元时间：%1 毫秒</translation>
    </message>
    <message>
        <source>Wafers: %1 (the fewest that hold the model: %2)</source>
        <translation>晶圆：%1（能容纳模型的最少数量：%2）</translation>
    </message>
    <message>
        <source>No prediction: %1</source>
        <translation>无预测：%1</translation>
    </message>
    <message>
        <source>Layer %1 on wafer %2 is over SRAM by %3 on its fullest core</source>
        <translation>晶圆 %2 上的第 %1 层在其最满的核心上超出 SRAM %3</translation>
    </message>
    <message>
        <source>Layout: %1</source>
        <translation>布局：%1</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>布局</translation>
    </message>
    <message>
        <source>&amp;Layout</source>
        <translation>布局(&amp;L)</translation>
    </message>
    <message>
        <source>Strategy</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>Weight fill</source>
        <translation>权重填充率</translation>
    </message>
    <message>
        <source>Wafers</source>
        <translation>晶圆数</translation>
    </message>
    <message>
        <source>Layer order</source>
        <translation>层顺序</translation>
    </message>
    <message>
        <source>KV placement</source>
        <translation>KV 放置</translation>
    </message>
    <message>
        <source>Context (tokens)</source>
        <translation>上下文（词元）</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>FFN / experts</source>
        <translation>FFN / 专家</translation>
    </message>
    <message>
        <source>Embeddings / head</source>
        <translation>嵌入 / 输出头</translation>
    </message>
    <message>
        <source>Layer-pipelined regions</source>
        <translation>按层流水线区域</translation>
    </message>
    <message>
        <source>WaferLLM whole-mesh tensor-parallel</source>
        <translation>WaferLLM 全网格张量并行</translation>
    </message>
    <message>
        <source>Snake</source>
        <translation>蛇形</translation>
    </message>
    <message>
        <source>Row-major</source>
        <translation>行优先</translation>
    </message>
    <message>
        <source>Column-major</source>
        <translation>列优先</translation>
    </message>
    <message>
        <source>Shift</source>
        <translation>移位</translation>
    </message>
    <message>
        <source>Concat</source>
        <translation>拼接</translation>
    </message>
    <message>
        <source>How layers map onto the mesh: one rectangular region per layer with the wafers in a pipeline, or every layer spread over the whole mesh of one wafer (WaferLLM). Changes the regions, the wafer count and the time per token.</source>
        <translation>层如何映射到网格：每层一个矩形区域、各晶圆组成流水线，或每层铺满一块晶圆的整个网格（WaferLLM）。会改变区域、晶圆数和每词元时间。</translation>
    </message>
    <message>
        <source>Fraction of each core&apos;s SRAM the placer fills with weights (phi_w); the rest holds the KV cache and buffers. Changes the region sizes and the wafers needed.</source>
        <translation>放置器用权重填充每个核心 SRAM 的比例（phi_w）；其余部分存放 KV 缓存和缓冲区。会改变区域大小和所需晶圆数。</translation>
    </message>
    <message>
        <source>Wafers the prediction uses, at least the fewest that hold the model; extra wafers stay idle. Changes the prediction&apos;s device count and cost.</source>
        <translation>预测使用的晶圆数，至少为能容纳模型的最少数量；多出的晶圆保持空闲。会改变预测的设备数和成本。</translation>
    </message>
    <message>
        <source>How consecutive layers follow each other on a wafer (snake: neighbours across every band end). Changes where each layer sits and the hops between layers.</source>
        <translation>相邻各层在晶圆上如何依次排列（蛇形：每条带末端两侧互为邻居）。会改变每层的位置和层间跳数。</translation>
    </message>
    <message>
        <source>How the KV cache grows each token: shifted along the region or concatenated. Changes the attention time in the prediction.</source>
        <translation>KV 缓存每个词元如何增长：沿区域移位或拼接。会改变预测中的注意力时间。</translation>
    </message>
    <message>
        <source>Tokens of KV cache reserved per layer. Changes the SRAM each region needs, so the region sizes and the wafer count.</source>
        <translation>每层预留的 KV 缓存词元数。会改变每个区域所需的 SRAM，从而改变区域大小和晶圆数。</translation>
    </message>
    <message>
        <source>Storage precision of the %1 weights. Changes their bytes per core, the region sizes and the time per token.</source>
        <translation>%1权重的存储精度。会改变它们在每个核心上的字节数、区域大小和每词元时间。</translation>
    </message>
    <message>
        <source>attention (q, k, v, o, norms, biases)</source>
        <translation>注意力（q、k、v、o、归一化、偏置）</translation>
    </message>
    <message>
        <source>FFN and expert</source>
        <translation>FFN 和专家</translation>
    </message>
    <message>
        <source>token embedding, LM head and final norm</source>
        <translation>词元嵌入、LM 头和最终归一化</translation>
    </message>
    <message>
        <source>Edit by hand on the heatmap</source>
        <translation>在热力图上手动编辑</translation>
    </message>
    <message>
        <source>Drag a layer&apos;s region to move it, drag its edges to resize it, Ctrl+click another region to swap the two layers; right-click to put the embedding or the LM head on a region.</source>
        <translation>拖动某层的区域可移动它，拖动其边缘可调整大小，按住 Ctrl 单击另一个区域可交换两层；右键单击可将嵌入或 LM 头放到某个区域。</translation>
    </message>
    <message>
        <source>Executing the layout&apos;s layers on the mesh engine, one region shape at a time…</source>
        <translation>正在网格引擎上执行该布局的各层，每种区域形状执行一次…</translation>
    </message>
    <message>
        <source>The mesh engine cannot time this layout: %1</source>
        <translation>网格引擎无法为此布局计时：%1</translation>
    </message>
    <message>
        <source>Mesh engine: the %1 layers take %2 µs a token (closed forms with the same unit costs: %3 µs), from %4 region shapes executed core by core.</source>
        <translation>网格引擎：%1 层每个词元耗时 %2 µs（相同单位成本下的闭式公式：%3 µs），由逐核心执行的 %4 种区域形状得出。</translation>
    </message>
    <message>
        <source>Slowest layer region: %1 × %2 cores (layer %3), %4 cycles.</source>
        <translation>最慢的层区域：%1 × %2 个核心（第 %3 层），%4 个周期。</translation>
    </message>
    <message>
        <source>Time with the mesh engine</source>
        <translation>用网格引擎计时</translation>
    </message>
    <message>
        <source>Execute the layout shown, hand edits included, core by core on the mesh engine with the hardware preset&apos;s core and link parameters: one layer per region shape, about a second each for a 70B model.</source>
        <translation>在网格引擎上逐核心执行当前显示的布局（包括手动编辑），使用硬件预设的核心与链路参数：每种区域形状执行一层，70B 模型每种约需一秒。</translation>
    </message>
    <message>
        <source>Experts</source>
        <translation>专家布局</translation>
    </message>
    <message>
        <source>Each on its own block</source>
        <translation>每个专家占一块</translation>
    </message>
    <message>
        <source>Sliced across the region</source>
        <translation>切分到整个区域</translation>
    </message>
    <message>
        <source>Where a mixture-of-experts layer&apos;s experts sit in the layer&apos;s region. Each on its own block: only the blocks of the token&apos;s active experts work, and the hidden state travels to them and back. Sliced: every expert is cut across all of the region&apos;s cores, so all of them work for the active experts, after an all-reduce that tells every core which experts the router picked. Both hold the same weights per core; an assumption either way (WaferScope&apos;s model), as no MoE layout on a wafer is published. Changes the time per token and what the Dataflow layer lights.</source>
        <translation>混合专家层的专家在该层区域中的位置。每个专家占一块：只有词元激活的专家所在的块工作，隐藏状态要传到这些块再传回。切分：每个专家都切分到区域的所有核心上，因此所有核心都为激活的专家工作，之前先做一次全归约，让每个核心知道路由器选了哪些专家。两种布局每个核心存放的权重相同；两者都是假设（WaferScope 的模型），因为晶圆上的 MoE 布局没有公开。会改变每词元时间以及数据流图层点亮的区域。</translation>
    </message>
</context>
<context>
    <name>ws::LayoutEditController</name>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <source>Undo the last layout change (Ctrl+Z)</source>
        <translation>撤销上一次布局更改（Ctrl+Z）</translation>
    </message>
    <message>
        <source>Redo the layout change undone last (Ctrl+Shift+Z)</source>
        <translation>重做最近撤销的布局更改（Ctrl+Shift+Z）</translation>
    </message>
    <message>
        <source>No placement for these settings: %1</source>
        <translation>这些设置下无法放置：%1</translation>
    </message>
    <message>
        <source>Layout settings</source>
        <translation>布局设置</translation>
    </message>
    <message>
        <source>Move layer %1</source>
        <translation>移动第 %1 层</translation>
    </message>
    <message>
        <source>Resize layer %1</source>
        <translation>调整第 %1 层大小</translation>
    </message>
    <message>
        <source>Swap layers %1 and %2</source>
        <translation>交换第 %1 层和第 %2 层</translation>
    </message>
    <message>
        <source>Move the LM head</source>
        <translation>移动 LM 头</translation>
    </message>
    <message>
        <source>Move the embedding</source>
        <translation>移动嵌入</translation>
    </message>
</context>
<context>
    <name>ws::LayoutExplorer</name>
    <message>
        <source>the window&apos;s layout when the point was opened</source>
        <translation>打开该点时窗口中的布局</translation>
    </message>
    <message>
        <source>Optimise layout</source>
        <translation>优化布局</translation>
    </message>
    <message>
        <source>%1 on %2 as pinned</source>
        <translation>%1（%2），固定时的布局</translation>
    </message>
    <message>
        <source>E&amp;xplore</source>
        <translation>探索(&amp;X)</translation>
    </message>
    <message>
        <source>Explore</source>
        <translation>探索</translation>
    </message>
    <message>
        <source>Pin as A</source>
        <translation>固定为 A</translation>
    </message>
    <message>
        <source>Keep the current layout as A; B follows the layout you edit next.</source>
        <translation>将当前布局保留为 A；B 跟随你接下来编辑的布局。</translation>
    </message>
    <message>
        <source>Compare Layouts</source>
        <translation>比较布局</translation>
    </message>
    <message>
        <source>Sweep…</source>
        <translation>扫描…</translation>
    </message>
    <message>
        <source>Optimise Layout…</source>
        <translation>优化布局…</translation>
    </message>
    <message>
        <source>Search region shapes, layer order and fill for the lowest time per token under the SRAM limit; the result opens as B against the default placement as A.</source>
        <translation>在 SRAM 限制内搜索区域形状、层顺序和填充率，使每 token 时间最短；结果作为 B 打开，默认放置作为 A。</translation>
    </message>
    <message>
        <source>What would it take?</source>
        <translation>需要什么条件？</translation>
    </message>
    <message>
        <source>What Would It Take…</source>
        <translation>需要什么条件…</translation>
    </message>
    <message>
        <source>Which kernels, speculative decoding and devices reach a target speed per user for the current scenario, and whether it is physically possible</source>
        <translation>对当前场景，哪些内核、推测解码与设备数量能达到每用户的目标速度，以及这在物理上是否可能</translation>
    </message>
</context>
<context>
    <name>ws::LiveWafer</name>
    <message>
        <source>&amp;Wafer shows:</source>
        <translation>晶圆显示(&amp;W)：</translation>
    </message>
    <message>
        <source>the scenario&apos;s model, at its predicted pace</source>
        <translation>场景的模型，按其预测速度</translation>
    </message>
    <message>
        <source>the loaded model</source>
        <translation>已加载的模型</translation>
    </message>
    <message>
        <source>What the main wafer plays while the chat answers: one token of the scenario model&apos;s dataflow per token, or the loaded model itself placed on the scenario&apos;s hardware.</source>
        <translation>聊天作答时主晶圆播放的内容：每个 token 播放一次场景模型的一个 token 的数据流，或者把已加载的模型本身放置到场景的硬件上。</translation>
    </message>
    <message>
        <source>no speed predicted for %1</source>
        <translation>未能预测 %1 的速度</translation>
    </message>
    <message>
        <source>Open a model: the main wafer follows its answer token by token.</source>
        <translation>打开一个模型：主晶圆会逐 token 跟随它的回答。</translation>
    </message>
    <message>
        <source>The wafer cannot follow the chat: %1</source>
        <translation>晶圆无法跟随聊天：%1</translation>
    </message>
    <message>
        <source>Text and wafer: %1, placed on %2 × %3 and lit token by token as it writes.</source>
        <translation>文本与晶圆：%1，放置在 %2 × %3 上，生成时逐 token 点亮。</translation>
    </message>
    <message>
        <source>Text and wafer: %1. Placing it on the scenario&apos;s hardware…</source>
        <translation>文本与晶圆：%1。正在将其放置到场景的硬件上…</translation>
    </message>
    <message>
        <source>Text: %1 on this CPU. Wafer timing: %2 on %3 × %4, one token of its dataflow per token, at its predicted %5 tokens/s.</source>
        <translation>文本：%1，在本机 CPU 上生成。晶圆时序：%2 在 %3 × %4 上，每个 token 播放其一个 token 的数据流，按预测的 %5 tokens/s。</translation>
    </message>
    <message>
        <source>Text: %1 on this CPU. Preparing the scenario model&apos;s timing…</source>
        <translation>文本：%1，在本机 CPU 上生成。正在准备场景模型的时序…</translation>
    </message>
    <message>
        <source>&amp;Slow motion</source>
        <translation>慢动作(&amp;S)</translation>
    </message>
    <message>
        <source>Shows the scenario model&apos;s answer slowed down to about reading pace (238 words per minute [Reading-rate], 4/3 tokens per word [Tokens-per-word]), so each token&apos;s dataflow can be seen. The rate named stays the predicted one. Takes effect from the next answer.</source>
        <translation>将场景模型的回答放慢到大约阅读速度（每分钟 238 个英文单词 [Reading-rate]，每个单词约 4/3 个词元 [Tokens-per-word]），以便看清每个词元的数据流。显示的速率仍是预测值。从下一次回答起生效。</translation>
    </message>
    <message>
        <source>Shown slowed %1× (%2 tokens/s) so each token can be followed.</source>
        <translation>放慢 %1 倍显示（%2 词元/秒），以便逐个跟随词元。</translation>
    </message>
</context>
<context>
    <name>ws::MainWindow</name>
    <message>
        <source>Computing the placement…</source>
        <translation>正在计算放置…</translation>
    </message>
</context>
<context>
    <name>ws::ModeController</name>
    <message>
        <source>&amp;Wafer</source>
        <translation>晶圆(&amp;W)</translation>
    </message>
    <message>
        <source>&amp;Chat</source>
        <translation>聊天(&amp;C)</translation>
    </message>
    <message>
        <source>C&amp;ompare</source>
        <translation>对比(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Explore</source>
        <translation>探索(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Present</source>
        <translation>演示(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Mode</source>
        <translation>模式(&amp;M)</translation>
    </message>
    <message>
        <source>The heatmap fills the window; a clicked core&apos;s inspector comes over it and hides itself again</source>
        <translation>热力图占满窗口；点击核心时检查器浮在其上，随后自动隐藏</translation>
    </message>
    <message>
        <source>The chat beside the wafer, the wafer following the answer&apos;s tokens</source>
        <translation>聊天与晶圆并排，晶圆跟随回答的 token</translation>
    </message>
    <message>
        <source>GPU, Groq and wafer compared at a legible size, the wafer as a live thumbnail beside them</source>
        <translation>以清晰可读的尺寸对比 GPU、Groq 和晶圆，旁边的晶圆为实时缩略图</translation>
    </message>
    <message>
        <source>The workbench: inspector, defects, layout editing, A/B compare and sweeps</source>
        <translation>工作台：检查器、缺陷、布局编辑、A/B 对比和扫描</translation>
    </message>
    <message>
        <source>Presentation mode: a tour full screen, no menus or docks (also F11; Esc leaves)</source>
        <translation>演示模式：全屏播放导览，不显示菜单和停靠窗口（也可按 F11；Esc 退出）</translation>
    </message>
</context>
<context>
    <name>ws::ModelDownloader</name>
    <message>
        <source>Not a download address (http or https): %1</source>
        <translation>不是下载地址（http 或 https）：%1</translation>
    </message>
    <message>
        <source>The SHA-256 checksum must be 64 hexadecimal digits.</source>
        <translation>SHA-256 校验和必须是 64 位十六进制数字。</translation>
    </message>
    <message>
        <source>Cannot create the folder %1</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>The server resumed at the wrong place (asked for byte %1).</source>
        <translation>服务器从错误的位置续传（请求的是第 %1 字节）。</translation>
    </message>
    <message>
        <source>The server answered %1 %2.</source>
        <translation>服务器返回 %1 %2。</translation>
    </message>
    <message>
        <source>Download of %1 stopped: %2</source>
        <translation>%1 的下载已停止：%2</translation>
    </message>
    <message>
        <source>The connection closed after %1 of %2 bytes; start the download again to resume.</source>
        <translation>连接在 %1 / %2 字节后关闭；重新开始下载即可续传。</translation>
    </message>
    <message>
        <source>Cannot read %1 to check it.</source>
        <translation>无法读取 %1 进行校验。</translation>
    </message>
    <message>
        <source>Checksum mismatch: the downloaded file has SHA-256 %1, expected %2. The file was deleted.</source>
        <translation>校验和不匹配：下载文件的 SHA-256 为 %1，应为 %2。文件已删除。</translation>
    </message>
    <message>
        <source>Cannot move the download to %1</source>
        <translation>无法将下载文件移动到 %1</translation>
    </message>
    <message>
        <source>The download is not a model file (%1). The file was deleted.</source>
        <translation>下载的文件不是模型文件（%1），已删除。</translation>
    </message>
</context>
<context>
    <name>ws::ModelMenu</name>
    <message>
        <source>&amp;Model</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Open Model…</source>
        <translation>打开模型(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Download from URL…</source>
        <translation>从网址下载(&amp;D)…</translation>
    </message>
    <message>
        <source>Open Model</source>
        <translation>打开模型</translation>
    </message>
    <message>
        <source>Models (*.gguf *.bin);;All files (*)</source>
        <translation>模型 (*.gguf *.bin);;所有文件 (*)</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
</context>
<context>
    <name>ws::OptimizeRunner</name>
    <message>
        <source>Optimise layout</source>
        <translation>优化布局</translation>
    </message>
    <message>
        <source>Searching region shapes, layer order and weight fill of %1 for the lowest time per token under the SRAM limit…</source>
        <translation>正在为 %1 搜索区域形状、层顺序和权重填充率，以在 SRAM 限制内获得最短的每 token 时间…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>default placement, %1 ms per token on %2 wafers</source>
        <translation>默认放置，%2 片晶圆上每 token %1 毫秒</translation>
    </message>
    <message>
        <source>optimised (%1 candidates), %2 ms per token on %3 wafers</source>
        <translation>已优化（%1 个候选），%3 片晶圆上每 token %2 毫秒</translation>
    </message>
</context>
<context>
    <name>ws::PresentationMode</name>
    <message>
        <source>&amp;Present</source>
        <translation>演示(&amp;P)</translation>
    </message>
    <message>
        <source>Presentation</source>
        <translation>演示</translation>
    </message>
    <message>
        <source>The tour stopped</source>
        <translation>导览已停止</translation>
    </message>
    <message>
        <source>End of the tour</source>
        <translation>导览结束</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>第 %1 步，共 %2 步</translation>
    </message>
    <message>
        <source>Play a tour full screen (F11): → next, ← back, Space pause, Home start again, Esc leave</source>
        <translation>全屏播放导览（F11）：→ 下一步，← 上一步，空格 暂停，Home 从头播放，Esc 退出</translation>
    </message>
    <message>
        <source>%1 · %2 · → next · ← back · Space pause · Home start again · Esc leave</source>
        <translation>%1 · %2 · → 下一步 · ← 上一步 · 空格 暂停 · Home 从头播放 · Esc 退出</translation>
    </message>
</context>
<context>
    <name>ws::RaceSample</name>
    <message>
        <source>four greedy runs of the stories260K model (llama.cpp&apos;s reference output), token by token, each up to its last full sentence</source>
        <translation>stories260K 模型的四次贪心生成（llama.cpp 参考输出），逐 token，每段截至其最后一个完整句子</translation>
    </message>
</context>
<context>
    <name>ws::RecordDialog</name>
    <message>
        <source>Record</source>
        <translation>录制</translation>
    </message>
    <message>
        <source> px</source>
        <translation> 像素</translation>
    </message>
    <message>
        <source> fps</source>
        <translation> 帧/秒</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Include the chat pane</source>
        <translation>包含聊天面板</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>格式：</translation>
    </message>
    <message>
        <source>Frame size:</source>
        <translation>帧尺寸：</translation>
    </message>
    <message>
        <source>Frame rate:</source>
        <translation>帧率：</translation>
    </message>
    <message>
        <source>Length:</source>
        <translation>时长：</translation>
    </message>
    <message>
        <source>Record…</source>
        <translation>录制…</translation>
    </message>
</context>
<context>
    <name>ws::Recorder</name>
    <message>
        <source>a recording is already running</source>
        <translation>已有录制正在进行</translation>
    </message>
    <message>
        <source>a recording needs at least one frame, got %1</source>
        <translation>录制至少需要一帧，实际为 %1</translation>
    </message>
    <message>
        <source>frame %1 could not be drawn</source>
        <translation>无法绘制第 %1 帧</translation>
    </message>
    <message>
        <source>recording cancelled</source>
        <translation>录制已取消</translation>
    </message>
</context>
<context>
    <name>ws::RunController</name>
    <message>
        <source>Not found: %1</source>
        <translation>未找到：%1</translation>
    </message>
    <message>
        <source>Cannot read the model: %1</source>
        <translation>无法读取模型：%1</translation>
    </message>
    <message>
        <source>The file is damaged or not a model: %1</source>
        <translation>文件已损坏或不是模型文件：%1</translation>
    </message>
    <message>
        <source>Not supported yet: %1</source>
        <translation>暂不支持：%1</translation>
    </message>
    <message>
        <source>Out of range: %1</source>
        <translation>超出范围：%1</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <source>Invalid input: %1</source>
        <translation>输入无效：%1</translation>
    </message>
    <message>
        <source>No model is loaded. Open a GGUF or llama2.c file (Model &gt; Open) or download one (Model &gt; Download from URL).</source>
        <translation>未加载模型。请打开 GGUF 或 llama2.c 文件（模型 &gt; 打开），或下载一个模型（模型 &gt; 从网址下载）。</translation>
    </message>
    <message>
        <source>Generation failed.</source>
        <translation>生成失败。</translation>
    </message>
    <message>
        <source>The generator failed: out of memory.</source>
        <translation>生成器出错：内存不足。</translation>
    </message>
    <message>
        <source>The generator failed: %1</source>
        <translation>生成器出错：%1</translation>
    </message>
    <message>
        <source>The generator failed: unknown exception.</source>
        <translation>生成器出错：未知异常。</translation>
    </message>
</context>
<context>
    <name>ws::ScenarioBar</name>
    <message>
        <source>%1 tokens</source>
        <translation>%1 个 token</translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Hardware</source>
        <translation>硬件(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Precision</source>
        <translation>精度(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Context</source>
        <translation>上下文(&amp;C)</translation>
    </message>
    <message>
        <source>Model architecture from the built-in presets (layers, sizes and heads cite their Hugging Face config).</source>
        <translation>来自内置预设的模型架构（层数、维度和注意力头数均注明其 Hugging Face 配置出处）。</translation>
    </message>
    <message>
        <source>Wafer-scale hardware preset. Every figure in a preset cites its source.</source>
        <translation>晶圆级硬件预设。预设中的每个数字都注明了来源。</translation>
    </message>
    <message>
        <source>Tokens of context the KV cache is sized for. Limited to the model&apos;s maximum.</source>
        <translation>KV 缓存按此上下文 token 数分配，不超过模型支持的最大值。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>&amp;Draft</source>
        <translation>草稿模型(&amp;D)</translation>
    </message>
    <message>
        <source>Speculative decoding&apos;s draft model: a smaller preset with the model&apos;s vocabulary. It gets its own strip of cores at the left edge of wafer 1, the fewest columns that hold it; the model is placed on the rest.</source>
        <translation>推测解码的草稿模型：与该模型词表相同的较小预设。它在第 1 块晶圆的左边缘获得自己的一条核心（能容纳它的最少列数）；模型放置在其余核心上。</translation>
    </message>
    <message>
        <source>Storage precision of the weights. INT8, INT4 and FP4 (MXFP4) include their block scales (8.5, 4.5 and 4.25 bits per weight).</source>
        <translation>权重的存储精度。INT8、INT4 和 FP4（MXFP4）含分块缩放因子（每个权重 8.5、4.5 和 4.25 位）。</translation>
    </message>
    <message>
        <source>%1 · loaded</source>
        <translation>%1 · 已加载</translation>
    </message>
    <message>
        <source>The chat&apos;s loaded model, placed on the scenario&apos;s hardware (Wafer shows: the loaded model).</source>
        <translation>对话中已加载的模型，放置在场景的硬件上（晶圆显示：已加载的模型）。</translation>
    </message>
</context>
<context>
    <name>ws::ScenarioController</name>
    <message>
        <source>the heatmap needs a model preset; this scenario names only the file %1</source>
        <translation>热力图需要模型预设；此场景只指定了文件 %1</translation>
    </message>
    <message>
        <source>%1 is not wafer-scale hardware; the heatmap shows wafers only</source>
        <translation>%1 不是晶圆级硬件；热力图只显示晶圆</translation>
    </message>
    <message>
        <source>Computing the placement…</source>
        <translation>正在计算放置…</translation>
    </message>
</context>
<context>
    <name>ws::ScenarioFormat</name>
    <message>
        <source>invalid layout: %1</source>
        <translation>无效的布局：%1</translation>
    </message>
    <message>
        <source>unknown key (expected one of: %1)</source>
        <translation>未知的键（应为以下之一：%1）</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <source>must be an object</source>
        <translation>必须是对象</translation>
    </message>
    <message>
        <source>must be a string</source>
        <translation>必须是字符串</translation>
    </message>
    <message>
        <source>must be a number from %1 to %2, got %3</source>
        <translation>必须是 %1 到 %2 之间的数，实际为 %3</translation>
    </message>
    <message>
        <source>must be an integer from %1 to %2, got %3</source>
        <translation>必须是 %1 到 %2 之间的整数，实际为 %3</translation>
    </message>
    <message>
        <source>the file is empty, not a WaferScope scenario</source>
        <translation>文件为空，不是 WaferScope 场景</translation>
    </message>
    <message>
        <source>not valid JSON (corrupt or truncated): %1 at byte %2</source>
        <translation>不是有效的 JSON（已损坏或被截断）：%1，位于第 %2 字节</translation>
    </message>
    <message>
        <source>not a WaferScope scenario: the top level must be a JSON object</source>
        <translation>不是 WaferScope 场景：顶层必须是 JSON 对象</translation>
    </message>
    <message>
        <source>not a WaferScope scenario: no &quot;version&quot; field</source>
        <translation>不是 WaferScope 场景：缺少 &quot;version&quot; 字段</translation>
    </message>
    <message>
        <source>written by a newer WaferScope (scenario format version %1; this version reads up to %2)</source>
        <translation>由更新版本的 WaferScope 写入（场景格式版本 %1；本版本最高支持 %2）</translation>
    </message>
    <message>
        <source>a model preset or a model file is required</source>
        <translation>需要模型预设或模型文件</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a preset id (lower case, digits, dashes)</source>
        <translation>&quot;%1&quot; 不是预设标识（应为小写字母、数字和连字符）</translation>
    </message>
    <message>
        <source>prompt_tokens + output_tokens (%1) exceed context_tokens (%2)</source>
        <translation>prompt_tokens + output_tokens（%1）超过 context_tokens（%2）</translation>
    </message>
    <message>
        <source>must be an array of {&quot;device&quot;, &quot;x&quot;, &quot;y&quot;} objects</source>
        <translation>必须是 {&quot;device&quot;, &quot;x&quot;, &quot;y&quot;} 对象的数组</translation>
    </message>
    <message>
        <source>must be an object {&quot;device&quot;, &quot;x&quot;, &quot;y&quot;}</source>
        <translation>必须是对象 {&quot;device&quot;, &quot;x&quot;, &quot;y&quot;}</translation>
    </message>
    <message>
        <source>unknown layer &quot;%1&quot; (expected one of: %2)</source>
        <translation>未知图层 &quot;%1&quot;（应为以下之一：%2）</translation>
    </message>
    <message>
        <source>must be an array of two numbers [x, y] in cores</source>
        <translation>必须是以核心为单位的两个数 [x, y] 组成的数组</translation>
    </message>
    <message>
        <source>%1: cannot open: %2</source>
        <translation>%1：无法打开：%2</translation>
    </message>
    <message>
        <source>%1: not a WaferScope scenario: %2 bytes is far larger than a scenario</source>
        <translation>%1：不是 WaferScope 场景：%2 字节远大于场景文件</translation>
    </message>
    <message>
        <source>%1: cannot read: %2</source>
        <translation>%1：无法读取：%2</translation>
    </message>
    <message>
        <source>%1: cannot save: %2</source>
        <translation>%1：无法保存：%2</translation>
    </message>
    <message>
        <source>must be &quot;row-shift&quot; or &quot;die-row-column&quot;</source>
        <translation>必须是 &quot;row-shift&quot; 或 &quot;die-row-column&quot;</translation>
    </message>
    <message>
        <source>must be an array of wafer indices</source>
        <translation>必须是晶圆序号的数组</translation>
    </message>
    <message>
        <source>unknown precision &quot;%1&quot; (expected fp32, bf16, fp16, fp8, int8, int4 or fp4)</source>
        <translation>未知精度 &quot;%1&quot;（应为 fp32、bf16、fp16、fp8、int8、int4 或 fp4）</translation>
    </message>
    <message>
        <source>%1: %2 in the file, %3 now</source>
        <translation>%1：文件中为 %2，现在为 %3</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>defects: not as in the file</source>
        <translation>缺陷：与文件中的不同</translation>
    </message>
    <message>
        <source>layout: not as in the file</source>
        <translation>布局：与文件中的不同</translation>
    </message>
</context>
<context>
    <name>ws::ScenarioScene</name>
    <message>
        <source>&apos;%1&apos; is not a wafer: only wafer-scale hardware has a core mesh to draw (try wse3)</source>
        <translation>“%1”不是晶圆：只有晶圆级硬件才有可绘制的核心网格（可试 wse3）</translation>
    </message>
</context>
<context>
    <name>ws::ShortcutsDialog</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>快捷键</translation>
    </message>
</context>
<context>
    <name>ws::Stage</name>
    <message>
        <source>No placement for this choice:
%1</source>
        <translation>当前选择无法放置：
%1</translation>
    </message>
</context>
<context>
    <name>ws::SweepDock</name>
    <message>
        <source>Sweeping %1 points…</source>
        <translation>正在扫描 %1 个点…</translation>
    </message>
    <message>
        <source>Sweep cancelled.</source>
        <translation>扫描已取消。</translation>
    </message>
    <message>
        <source>%1 points, %2 not placed or predicted. Click a point on a chart (or double-click a row) to open its layout as B.</source>
        <translation>共 %1 个点，其中 %2 个无法放置或预测。点击图表上的点（或双击表格行）即可将其布局作为 B 打开。</translation>
    </message>
    <message>
        <source>tokens/s per user</source>
        <translation>每用户 token/秒</translation>
    </message>
    <message>
        <source>ms per token</source>
        <translation>每 token 毫秒</translation>
    </message>
    <message>
        <source>TTFT (ms)</source>
        <translation>首 token 时间（毫秒）</translation>
    </message>
    <message>
        <source>wafers</source>
        <translation>晶圆数</translation>
    </message>
    <message>
        <source>KV capacity (tokens)</source>
        <translation>KV 容量（token）</translation>
    </message>
    <message>
        <source>SRAM headroom (bytes)</source>
        <translation>SRAM 余量（字节）</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>sweep point %1 (%2)</source>
        <translation>扫描点 %1（%2）</translation>
    </message>
    <message>
        <source>That point has no layout that places.</source>
        <translation>该点没有可放置的布局。</translation>
    </message>
    <message>
        <source>Run a sweep first.</source>
        <translation>请先运行一次扫描。</translation>
    </message>
    <message>
        <source>Unknown export format “%1”: use .csv, .json, .png or .svg</source>
        <translation>未知的导出格式“%1”：请使用 .csv、.json、.png 或 .svg</translation>
    </message>
    <message>
        <source>Export the sweep</source>
        <translation>导出扫描</translation>
    </message>
    <message>
        <source>CSV data (*.csv);;JSON data (*.json);;PNG image of the chart (*.png);;SVG drawing of the chart (*.svg)</source>
        <translation>CSV 数据 (*.csv);;JSON 数据 (*.json);;图表的 PNG 图像 (*.png);;图表的 SVG 矢量图 (*.svg)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>扫描</translation>
    </message>
    <message>
        <source>Run sweep</source>
        <translation>运行扫描</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>(one parameter)</source>
        <translation>（仅一个参数）</translation>
    </message>
    <message>
        <source>LO:HI:STEP or V1,V2,…</source>
        <translation>下限:上限:步长 或 V1,V2,…</translation>
    </message>
    <message>
        <source>Values as waferscope-cli sweep takes them: a range LO:HI:STEP or a list.</source>
        <translation>取值写法与 waferscope-cli sweep 相同：范围 下限:上限:步长，或一个列表。</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>表格</translation>
    </message>
    <message>
        <source>Chart</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>Pareto</source>
        <translation>帕累托</translation>
    </message>
    <message>
        <source>Tokens/s per user against wafers</source>
        <translation>每用户 token/秒 与晶圆数</translation>
    </message>
    <message>
        <source>Tokens/s per user against KV capacity</source>
        <translation>每用户 token/秒 与 KV 容量</translation>
    </message>
    <message>
        <source>The layout parameter to sweep: weight fill, context, precision, wafer count, concurrency, layer order, region aspect (bands per wafer), hop latency (a factor on each hop&apos;s cost) or a mixture-of-experts model&apos;s expert layout (blocks, sliced).</source>
        <translation>要扫描的布局参数：权重填充率、上下文、精度、晶圆数、并发数、层顺序、区域长宽比（每片晶圆的条带数）、跳延迟（每跳开销的倍数），或混合专家模型的专家布局（blocks、sliced）。</translation>
    </message>
</context>
<context>
    <name>ws::TableWriter</name>
    <message>
        <source>%1: choose a .csv or .json file name for data</source>
        <translation>%1：数据请选择 .csv 或 .json 文件名</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>ws::VideoEncoder</name>
    <message>
        <source>frame rate must be from %1 to %2 frames per second, got %3</source>
        <translation>帧率必须在每秒 %1 到 %2 帧之间，实际为 %3</translation>
    </message>
    <message>
        <source>frame size must be from %1 to %2 pixels per side, got %3x%4</source>
        <translation>帧尺寸每边必须在 %1 到 %2 像素之间，实际为 %3x%4</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>no video file is open</source>
        <translation>没有打开的视频文件</translation>
    </message>
    <message>
        <source>frame %1 is empty</source>
        <translation>第 %1 帧为空</translation>
    </message>
    <message>
        <source>no frames to write to %1</source>
        <translation>没有可写入 %1 的帧</translation>
    </message>
    <message>
        <source>a GIF plays at most %1 frames per second (its frame delays are in hundredths of a second, and players slow shorter ones down), got %2</source>
        <translation>GIF 每秒最多播放 %1 帧（其帧延迟以百分之一秒计，更短的延迟会被播放器放慢），收到 %2</translation>
    </message>
</context>
<context>
    <name>ws::VideoProbe</name>
    <message>
        <source>cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 holds no video stream that FFmpeg can decode</source>
        <translation>%1 中没有 FFmpeg 可解码的视频流</translation>
    </message>
    <message>
        <source>cannot start the %1 decoder: %2</source>
        <translation>无法启动 %1 解码器：%2</translation>
    </message>
    <message>
        <source>cannot decode frame %1 of %2: %3</source>
        <translation>无法解码 %2 的第 %1 帧：%3</translation>
    </message>
    <message>
        <source>cannot decode %1: %2</source>
        <translation>无法解码 %1：%2</translation>
    </message>
</context>
<context>
    <name>ws::VideoSettings</name>
    <message>
        <source>MP4 (H.264)</source>
        <translation>MP4（H.264）</translation>
    </message>
    <message>
        <source>WebM (VP9)</source>
        <translation>WebM（VP9）</translation>
    </message>
    <message>
        <source>GIF</source>
        <translation>GIF</translation>
    </message>
</context>
<context>
    <name>ws::WaferScene</name>
    <message>
        <source>the engine gave no dataflow schedule for %1 on %2</source>
        <translation>引擎未给出 %1 在 %2 上的数据流调度</translation>
    </message>
    <message>
        <source>the model is not placed on a wafer</source>
        <translation>模型未放置到晶圆上</translation>
    </message>
</context>
<context>
    <name>ws::WhatItTakesDialog</name>
    <message>
        <source>What would it take?</source>
        <translation>需要什么条件？</translation>
    </message>
    <message>
        <source> tokens/s per user</source>
        <translation> token/s（每用户）</translation>
    </message>
    <message>
        <source>Published or measured figures for this model and hardware (the shipped measurement rows), each with its source</source>
        <translation>该模型与硬件的公开或实测数据（随附的测量行），均注明来源</translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Factor</source>
        <translation>系数</translation>
    </message>
    <message>
        <source>Draft tokens</source>
        <translation>草稿 token 数</translation>
    </message>
    <message>
        <source>Acceptance</source>
        <translation>接受率</translation>
    </message>
    <message>
        <source>Devices</source>
        <translation>设备数</translation>
    </message>
    <message>
        <source>Tokens/s per user</source>
        <translation>每用户 token/s</translation>
    </message>
    <message>
        <source>Ceiling</source>
        <translation>上限</translation>
    </message>
    <message>
        <source>Reaches</source>
        <translation>是否达到</translation>
    </message>
    <message>
        <source>Target:</source>
        <translation>目标：</translation>
    </message>
    <message>
        <source>or a published figure:</source>
        <translation>或选择公开数据：</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Save the table as CSV or JSON</source>
        <translation>将表格保存为 CSV 或 JSON</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; on %2 at %3, %4 tokens of context, %5 user(s)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;，运行于 %2，精度 %3，上下文 %4 个 token，%5 个用户</translation>
    </message>
    <message>
        <source>(choose)</source>
        <translation>（请选择）</translation>
    </message>
    <message>
        <source>%1 tokens/s: %2</source>
        <translation>%1 token/s：%2</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>CSV files (*.csv);;JSON files (*.json)</source>
        <translation>CSV 文件 (*.csv);;JSON 文件 (*.json)</translation>
    </message>
    <message>
        <source>The speed per user to reach; the search tries kernels, speculative decoding, a mixture-of-experts model&apos;s expert layout and devices (engine/explore/targetsearch.h), the same as waferscope-cli predict --target-tokens-per-second</source>
        <translation>要达到的每用户速度；搜索会尝试内核、推测解码、混合专家模型的专家布局与设备数量（engine/explore/targetsearch.h），与 waferscope-cli predict --target-tokens-per-second 相同</translation>
    </message>
    <message>
        <source>Experts</source>
        <translation>专家布局</translation>
    </message>
</context>
<context>
    <name>ws::WindowDocks</name>
    <message>
        <source>Defects: %1 (the heatmap keeps the last placement that fits)</source>
        <translation>缺陷：%1（热图保留最后一个放得下的布局）</translation>
    </message>
</context>
<context>
    <name>ws::WindowMenus</name>
    <message>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>View</source>
        <translation>视图</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Layer</source>
        <translation>图层(&amp;L)</translation>
    </message>
    <message>
        <source>L&amp;anguage</source>
        <translation>语言(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom in around the centre (Ctrl++, or the mouse wheel around the cursor)</source>
        <translation>以中心放大（Ctrl++，或用鼠标滚轮以光标为中心缩放）</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>Zoom out (Ctrl+-)</source>
        <translation>缩小（Ctrl+-）</translation>
    </message>
    <message>
        <source>&amp;Fit to Window</source>
        <translation>适应窗口(&amp;F)</translation>
    </message>
    <message>
        <source>Show the whole wafer (Ctrl+0, or double-click the heatmap)</source>
        <translation>显示整片晶圆（Ctrl+0，或双击热力图）</translation>
    </message>
    <message>
        <source>&amp;Previous Wafer</source>
        <translation>上一片晶圆(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Next Wafer</source>
        <translation>下一片晶圆(&amp;N)</translation>
    </message>
    <message>
        <source>Dataflow &amp;Playback</source>
        <translation>数据流播放(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Inspector</source>
        <translation>检查器(&amp;I)</translation>
    </message>
    <message>
        <source>&amp;Reset Layout</source>
        <translation>重置布局(&amp;R)</translation>
    </message>
    <message>
        <source>Put every dock back where it starts and the window at its first size</source>
        <translation>把每个停靠窗口放回初始位置，并把窗口恢复到初始大小</translation>
    </message>
    <message>
        <source>&amp;About WaferScope</source>
        <translation>关于 WaferScope(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
</context>
<context>
    <name>ws::WindowStatus</name>
    <message>
        <source>Wafer %1, core (%2, %3)</source>
        <translation>晶圆 %1，核心 (%2, %3)</translation>
    </message>
    <message>
        <source>Zoom: %1 px per core</source>
        <translation>缩放：每核心 %1 像素</translation>
    </message>
    <message>
        <source>All wafers of the placement. Click one to show it (Page Up / Page Down).</source>
        <translation>放置所用的全部晶圆。点击一片即可查看（Page Up / Page Down）。</translation>
    </message>
    <message>
        <source>Devices: –</source>
        <translation>设备：–</translation>
    </message>
    <message>
        <source>SRAM used: –</source>
        <translation>已用 SRAM：–</translation>
    </message>
    <message>
        <source>WaferScope</source>
        <translation>WaferScope</translation>
    </message>
    <message>
        <source>Devices: %1 × %2</source>
        <translation>设备：%1 × %2</translation>
    </message>
    <message>
        <source>Wafers the engine&apos;s placement needs for the model&apos;s weights and KV cache at %1 tokens of context.</source>
        <translation>在 %1 个 token 的上下文下，引擎放置模型权重和 KV 缓存所需的晶圆数。</translation>
    </message>
    <message>
        <source>SRAM used: %1 of %2 (%3%)</source>
        <translation>已用 SRAM：%1 / %2（%3%）</translation>
    </message>
    <message>
        <source>Sum over all cores of the bytes the placement puts there (weights and KV cache), against %1 per core from the hardware preset.</source>
        <translation>放置到所有核心上的字节（权重和 KV 缓存）之和，对比硬件预设中每核 %1 的容量。</translation>
    </message>
    <message>
        <source>WaferScope — %1 on %2 × %3 (%4)</source>
        <translation>WaferScope — %1 运行于 %2 × %3（%4）</translation>
    </message>
</context>
<context>
    <name>ws::views::CalibrationChart</name>
    <message>
        <source>Predicted vs measured decode speed (calibration rows)</source>
        <translation>预测与实测解码速度（校准数据）</translation>
    </message>
    <message>
        <source>measured tokens/s (log)</source>
        <translation>实测 token/秒（对数）</translation>
    </message>
    <message>
        <source>predicted tokens/s (log)</source>
        <translation>预测 token/秒（对数）</translation>
    </message>
    <message>
        <source>predicted = measured</source>
        <translation>预测 = 实测</translation>
    </message>
    <message>
        <source>%1
measured %2, predicted %3 (%4 %)
profile %5
source: %6</source>
        <translation>%1
实测 %2，预测 %3（%4 %）
校准配置 %5
来源：%6</translation>
    </message>
    <message>
        <source>not fitted: %1</source>
        <translation>未参与拟合：%1</translation>
    </message>
    <message>
        <source>Measurement</source>
        <translation>测量</translation>
    </message>
    <message>
        <source>Measured tok/s</source>
        <translation>实测 token/秒</translation>
    </message>
    <message>
        <source>Predicted tok/s</source>
        <translation>预测 token/秒</translation>
    </message>
    <message>
        <source>Residual</source>
        <translation>残差</translation>
    </message>
    <message>
        <source>Fitted</source>
        <translation>参与拟合</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>aggregate</source>
        <translation>总计</translation>
    </message>
    <message>
        <source>per user</source>
        <translation>每用户</translation>
    </message>
    <message>
        <source>(predicted − measured) / measured</source>
        <translation>（预测 − 实测）/ 实测</translation>
    </message>
    <message>
        <source>The engine&apos;s predictor with this profile</source>
        <translation>引擎预测器（使用此校准配置）</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
</context>
<context>
    <name>ws::views::CalibrationPanel</name>
    <message>
        <source>Calibration profiles: efficiency constants fitted by least squares to published measurements (resources/measurements)</source>
        <translation>校准配置：用最小二乘法对公开测量数据拟合的效率常数（resources/measurements）</translation>
    </message>
    <message>
        <source>Fit from my measurements…</source>
        <translation>用我的测量数据拟合…</translation>
    </message>
    <message>
        <source>Enter or load your own decode measurements and fit a new profile with the engine&apos;s least-squares fitter</source>
        <translation>输入或载入您自己的解码测量数据，并用引擎的最小二乘拟合器拟合新的校准配置</translation>
    </message>
    <message>
        <source>Profiles</source>
        <translation>校准配置</translation>
    </message>
    <message>
        <source>Constant</source>
        <translation>常数</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>Unit</source>
        <translation>单位</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Measurements and residuals</source>
        <translation>测量数据与残差</translation>
    </message>
    <message>
        <source>Constants</source>
        <translation>常数</translation>
    </message>
    <message>
        <source>%1 (%2) — rms %3 %</source>
        <translation>%1（%2）— 均方根 %3 %</translation>
    </message>
    <message>
        <source>[yours]</source>
        <translation>[您的]</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; — %2&lt;br&gt;Source: %3&lt;br&gt;Fit: rms relative residual %4 %, worst %5 %</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; — %2&lt;br&gt;来源：%3&lt;br&gt;拟合：相对残差均方根 %4 %，最大 %5 %</translation>
    </message>
    <message>
        <source>Add measurements…</source>
        <translation>添加测量数据…</translation>
    </message>
    <message>
        <source>Load a JSON file of your own decode measurements (the format of resources/measurements); matching figures appear on the comparison&apos;s charts</source>
        <translation>加载您自己的解码测量数据 JSON 文件（格式同 resources/measurements）；匹配的数据会显示在对比图表上</translation>
    </message>
</context>
<context>
    <name>ws::views::ChartCard</name>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Save this chart as PNG (at a chosen scale) or SVG, or its data as CSV or JSON</source>
        <translation>将此图表保存为 PNG（可选缩放）或 SVG，或将其数据保存为 CSV 或 JSON</translation>
    </message>
</context>
<context>
    <name>ws::views::ChatMessageWidget</name>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy this message to the clipboard</source>
        <translation>将此消息复制到剪贴板</translation>
    </message>
    <message>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>Model (writing…)</source>
        <translation>模型（正在生成…）</translation>
    </message>
</context>
<context>
    <name>ws::views::ChatPane</name>
    <message>
        <source>chat template %1</source>
        <translation>聊天模板 %1</translation>
    </message>
    <message>
        <source>completion (base model)</source>
        <translation>续写（基础模型）</translation>
    </message>
    <message>
        <source>completion: %1 template not supported</source>
        <translation>续写：不支持 %1 聊天模板</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>聊天</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <source>Copy All</source>
        <translation>全部复制</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清空</translation>
    </message>
    <message>
        <source>Open Model…</source>
        <translation>打开模型…</translation>
    </message>
    <message>
        <source>Download…</source>
        <translation>下载…</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;No model loaded.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;The chat runs a real language model on this computer&apos;s CPU and lights up the wafer token by token.&lt;/p&gt;&lt;p&gt;To get one: open a GGUF file or a llama2.c checkpoint with &lt;i&gt;Model &amp;gt; Open Model…&lt;/i&gt; (or drop the file on this pane), or fetch one with &lt;i&gt;Model &amp;gt; Download from URL…&lt;/i&gt;.&lt;/p&gt;&lt;p&gt;For a first try, Karpathy&apos;s stories260K (about 1 MB, tells short children&apos;s stories) is enough; small Llama or Qwen GGUF files chat with their chat template.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;未加载模型。&lt;/b&gt;&lt;/p&gt;&lt;p&gt;聊天会在本机 CPU 上运行真实的语言模型，并逐个 token 点亮晶圆。&lt;/p&gt;&lt;p&gt;获取模型：通过 &lt;i&gt;模型 &amp;gt; 打开模型…&lt;/i&gt; 打开 GGUF 文件或 llama2.c 检查点（或将文件拖到此面板），或通过 &lt;i&gt;模型 &amp;gt; 从网址下载…&lt;/i&gt; 下载。&lt;/p&gt;&lt;p&gt;初次尝试用 Karpathy 的 stories260K（约 1 MB，会讲简短的儿童故事）就足够了；小型 Llama 或 Qwen GGUF 文件会使用其聊天模板对话。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Download from URL…</source>
        <translation>从网址下载…</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Type a prompt and press Enter (Shift+Enter for a new line)</source>
        <translation>输入提示词并按 Enter（Shift+Enter 换行）</translation>
    </message>
    <message>
        <source>&lt;b&gt;No model&lt;/b&gt;</source>
        <translation>&lt;b&gt;无模型&lt;/b&gt;</translation>
    </message>
    <message>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2) · %3 · %4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;（%2）· %3 · %4</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; · %2 · %3</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; · %2 · %3</translation>
    </message>
</context>
<context>
    <name>ws::views::ChatSettingsPanel</name>
    <message>
        <source>Above 1 discourages repeating the last 64 tokens (1 = off)</source>
        <translation>大于 1 时抑制重复最近 64 个 token（1 = 关闭）</translation>
    </message>
    <message>
        <source>Min-p:</source>
        <translation>Min-p：</translation>
    </message>
    <message>
        <source>Repetition penalty:</source>
        <translation>重复惩罚：</translation>
    </message>
    <message>
        <source>Optional instructions for instruct models</source>
        <translation>指令模型的可选指令</translation>
    </message>
    <message>
        <source>Automatic (chat template when the model has one)</source>
        <translation>自动（模型有聊天模板时使用）</translation>
    </message>
    <message>
        <source>Chat template</source>
        <translation>聊天模板</translation>
    </message>
    <message>
        <source>Completion (continue the text)</source>
        <translation>续写（接着文本往下写）</translation>
    </message>
    <message>
        <source>0 (greedy)</source>
        <translation>0（贪心）</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Show tokens as fast as this CPU makes them, or at the speed the selected system is predicted to reach for this model</source>
        <translation>按本机 CPU 生成的速度显示 token，或按所选系统对该模型的预测速度显示</translation>
    </message>
    <message>
        <source>System prompt:</source>
        <translation>系统提示词：</translation>
    </message>
    <message>
        <source>Prompt:</source>
        <translation>提示词：</translation>
    </message>
    <message>
        <source>Temperature:</source>
        <translation>温度：</translation>
    </message>
    <message>
        <source>Top-k:</source>
        <translation>Top-k：</translation>
    </message>
    <message>
        <source>Top-p:</source>
        <translation>Top-p：</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>随机种子：</translation>
    </message>
    <message>
        <source>Max new tokens:</source>
        <translation>最大新 token 数：</translation>
    </message>
    <message>
        <source>Pace:</source>
        <translation>速度：</translation>
    </message>
    <message>
        <source>As fast as this CPU</source>
        <translation>按本机 CPU 速度</translation>
    </message>
    <message>
        <source>At the pace of %1 (%2, predicted)</source>
        <translation>按 %1 的速度（%2，预测值）</translation>
    </message>
    <message>
        <source>Stop the reply</source>
        <translation>停止回复</translation>
    </message>
    <message>
        <source>Leave the oldest turns out (and say so)</source>
        <translation>省略最早的轮次（并注明）</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> 个 token</translation>
    </message>
    <message>
        <source>Prompt and reply tokens the conversation may use, at most the model&apos;s trained context; the KV cache grows with the conversation up to it</source>
        <translation>对话可使用的提示与回复 token 数，最多为模型的训练上下文；KV 缓存随对话增长，直至该上限</translation>
    </message>
    <message>
        <source>F16 halves the KV cache&apos;s memory (llama.cpp&apos;s default); F32 is exact</source>
        <translation>F16 使 KV 缓存内存减半（llama.cpp 的默认值）；F32 为精确值</translation>
    </message>
    <message>
        <source>Context:</source>
        <translation>上下文：</translation>
    </message>
    <message>
        <source>KV cache:</source>
        <translation>KV 缓存：</translation>
    </message>
    <message>
        <source>When the context is full:</source>
        <translation>上下文已满时：</translation>
    </message>
    <message>
        <source>Read into memory (decodes fastest)</source>
        <translation>读入内存（解码最快）</translation>
    </message>
    <message>
        <source>Mapped from the file (mmap)</source>
        <translation>从文件映射（mmap）</translation>
    </message>
    <message>
        <source>How the next model opened holds its weights: read whole into memory (huge pages, the fastest decoding, and the file on disk no longer matters), or mapped from the file (opens at once; if the file changes on disk the reply ends with an error). A file larger than half the free memory is always mapped</source>
        <translation>下一个打开的模型如何保存权重：整体读入内存（大页，解码最快，之后磁盘上的文件不再影响解码），或从文件映射（立即打开；若磁盘上的文件发生变化，回复会以错误结束）。大于可用内存一半的文件始终采用映射</translation>
    </message>
    <message>
        <source>Model weights:</source>
        <translation>模型权重：</translation>
    </message>
</context>
<context>
    <name>ws::views::ComparisonDrivers</name>
    <message>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>Uncertain input</source>
        <translation>不确定的输入</translation>
    </message>
    <message>
        <source>Low – high</source>
        <translation>低 – 高</translation>
    </message>
    <message>
        <source>Tokens/s per user at low – high</source>
        <translation>低端 – 高端时每用户 tokens/s</translation>
    </message>
    <message>
        <source>Effect</source>
        <translation>影响</translation>
    </message>
    <message>
        <source>Share of range</source>
        <translation>占区间比例</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>%1 – %2 %3</source>
        <translation>%1 – %2 %3</translation>
    </message>
    <message>
        <source>assumed: %1</source>
        <translation>假设值：%1</translation>
    </message>
    <message>
        <source>%1 – %2</source>
        <translation>%1 – %2</translation>
    </message>
    <message>
        <source>× %1</source>
        <translation>× %1</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>&lt; 0.1 %</source>
        <translation>&lt; 0.1 %</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:%1; font-weight:600&apos;&gt;%2&lt;/span&gt;: %3 – %4 tokens/s per user, mostly &lt;b&gt;%5&lt;/b&gt; (%6 % of the range); ceiling %7 tokens/s (%8 bound)</source>
        <translation>&lt;span style=&apos;color:%1; font-weight:600&apos;&gt;%2&lt;/span&gt;：每用户 %3 – %4 tokens/s，区间主要来自 &lt;b&gt;%5&lt;/b&gt;（占 %6 %）；上限 %7 tokens/s（%8 约束）</translation>
    </message>
</context>
<context>
    <name>ws::views::ComparisonInputModel</name>
    <message>
        <source>%1 — %2: %3
Source: %4</source>
        <translation>%1 — %2：%3
来源：%4</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>分组</translation>
    </message>
    <message>
        <source>Parameter</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
</context>
<context>
    <name>ws::views::ComparisonPanel</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 – %2</source>
        <translation>%1 – %2</translation>
    </message>
    <message>
        <source>Tokens per second per user</source>
        <translation>每用户每秒 token 数</translation>
    </message>
    <message>
        <source>Time to first token</source>
        <translation>首 token 延迟</translation>
    </message>
    <message>
        <source>Energy per token</source>
        <translation>每 token 能耗</translation>
    </message>
    <message>
        <source>Throughput vs latency</source>
        <translation>吞吐量与延迟</translation>
    </message>
    <message>
        <source>&lt;b&gt;What it means&lt;/b&gt;</source>
        <translation>&lt;b&gt;这意味着什么&lt;/b&gt;</translation>
    </message>
    <message>
        <source>The fastest and slowest systems by tokens/s per user; figures from the table above</source>
        <translation>按每用户 token/秒 计最快与最慢的系统；数值来自上表</translation>
    </message>
    <message>
        <source>What it means</source>
        <translation>这意味着什么</translation>
    </message>
    <message>
        <source>Predicted vs measured</source>
        <translation>预测与实测</translation>
    </message>
    <message>
        <source>Inputs and sources</source>
        <translation>输入与来源</translation>
    </message>
    <message>
        <source>Comparison</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Calibration</source>
        <translation>校准</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1 on %2: engine prediction (%3 devices, concurrency %4, profile %5).</source>
        <translation>%1 运行于 %2：引擎预测（%3 个设备，并发 %4，校准配置 %5）。</translation>
    </message>
    <message>
        <source>×%1</source>
        <translation>×%1</translation>
    </message>
    <message>
        <source>%1 tokens/s per user (range %2 – %3)
%4
%5</source>
        <translation>每用户 %1 token/秒（范围 %2 – %3）
%4
%5</translation>
    </message>
    <message>
        <source>Time to first token %1 ms (range %2 – %3) for a %4-token prompt
%5</source>
        <translation>首 token 延迟 %1 毫秒（范围 %2 – %3），提示词 %4 个 token
%5</translation>
    </message>
    <message>
        <source>%1 J per token = %2 W for all %3 devices / %4 tokens/s in all
Range from the speed range at the same power. Power: hardware preset (see Inputs).
%5</source>
        <translation>每 token %1 焦耳 = %3 个设备共 %2 瓦 / 总计 %4 token/秒
范围由相同功耗下的速度范围得出。功耗：硬件预设（见“输入与来源”）。
%5</translation>
    </message>
    <message>
        <source>No published power figure for this hardware preset, so no energy per token.</source>
        <translation>此硬件预设没有公开的功耗数据，因此没有每 token 能耗。</translation>
    </message>
    <message>
        <source>Decode speed per user (%1)</source>
        <translation>每用户解码速度（%1）</translation>
    </message>
    <message>
        <source>tokens/s per user</source>
        <translation>每用户 token/秒</translation>
    </message>
    <message>
        <source>Time to first token (%1-token prompt)</source>
        <translation>首 token 延迟（提示词 %1 个 token）</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <source>Energy per token (concurrency %1)</source>
        <translation>每 token 能耗（并发 %1）</translation>
    </message>
    <message>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>Tokens/s per user</source>
        <translation>每用户 token/秒</translation>
    </message>
    <message>
        <source>First token</source>
        <translation>首 token</translation>
    </message>
    <message>
        <source>Agent %1 × %2 tokens</source>
        <translation>智能体 %1 轮 × %2 个 token</translation>
    </message>
    <message>
        <source>%1-character answer</source>
        <translation>%1 字回答</translation>
    </message>
    <message>
        <source>vs. reading</source>
        <translation>与阅读相比</translation>
    </message>
    <message>
        <source>Engine prediction (see the charts&apos; tooltips for the basis)</source>
        <translation>引擎预测（依据见图表的提示）</translation>
    </message>
    <message>
        <source>Steps × (time to first token + tokens per step / tokens/s): engine</source>
        <translation>轮数 ×（首 token 延迟 + 每轮 token 数 / token/秒）：引擎</translation>
    </message>
    <message>
        <source>Time to first token + characters × %1–%2 tokens per character / tokens/s; tokens per character: %3</source>
        <translation>首 token 延迟 + 字数 × 每字 %1–%2 个 token / token/秒；每字 token 数：%3</translation>
    </message>
    <message>
        <source>%1 – %2 × faster</source>
        <translation>快 %1 – %2 倍</translation>
    </message>
    <message>
        <source>Tokens/s per user ÷ reading speed in tokens/s (%1 – %2)</source>
        <translation>每用户 token/秒 ÷ 以 token/秒计的阅读速度（%1 – %2）</translation>
    </message>
    <message>
        <source>Reading %1–%2 characters a minute: %3</source>
        <translation>每分钟阅读 %1–%2 字：%3</translation>
    </message>
    <message>
        <source>Human reader</source>
        <translation>人类读者</translation>
    </message>
    <message>
        <source>A %1-character Chinese answer: %2 on %3, %4 on %5; a person needs %6 to read it.</source>
        <translation>一篇 %1 字的中文回答：%3 需要 %2，%5 需要 %4；一个人读完需要 %6。</translation>
    </message>
    <message>
        <source>An agent workflow of %1 steps × %2 tokens: %3 on %4, %5 on %6.</source>
        <translation>%1 轮 × %2 个 token 的智能体工作流：%4 需要 %3，%6 需要 %5。</translation>
    </message>
    <message>
        <source>A reader takes in %1–%2 Chinese characters a minute (%3), i.e. %4–%5 tokens/s at %6–%7 tokens per character. Predictions are the engine&apos;s, with the ranges of its calibration profiles.</source>
        <translation>读者每分钟阅读 %1–%2 个汉字（%3），按每字 %6–%7 个 token 计即 %4–%5 token/秒。预测值来自引擎，范围来自其校准配置。</translation>
    </message>
    <message>
        <source>Range drivers</source>
        <translation>区间来源</translation>
    </message>
    <message>
        <source>Roofline</source>
        <translation>屋顶线</translation>
    </message>
    <message>
        <source>Ranges and ceilings</source>
        <translation>区间与上限</translation>
    </message>
    <message>
        <source>$ per million tokens</source>
        <translation>每百万 token 美元</translation>
    </message>
    <message>
        <source>%1 (%2 – %3)</source>
        <translation>%1（%2 – %3）</translation>
    </message>
    <message>
        <source>$%1 an hour for %2 devices / (%3 tokens/s in all × 3,600); hourly cost: %4</source>
        <translation>%2 台设备每小时 $%1 ÷（总计 %3 tokens/s × 3,600）；小时成本：%4</translation>
    </message>
    <message>
        <source>No hourly cost in the hardware preset</source>
        <translation>硬件预设中没有小时成本</translation>
    </message>
    <message>
        <source>; API $%1</source>
        <translation>；API $%1</translation>
    </message>
    <message>
        <source>
Published API price: $%1 per million output tokens (%2, %3)</source>
        <translation>
公开 API 价格：每百万输出 token $%1（%2，%3）</translation>
    </message>
    <message>
        <source>Cost per million tokens</source>
        <translation>每百万 token 成本</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <source>Speculative decoding</source>
        <translation>推测解码</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>token/秒</translation>
    </message>
    <message>
        <source>J/token</source>
        <translation>焦耳/词元</translation>
    </message>
</context>
<context>
    <name>ws::views::ComparisonSettingsBar</name>
    <message>
        <source>Model preset (resources/presets/models); every system runs the same model</source>
        <translation>模型预设（resources/presets/models）；所有系统运行同一模型</translation>
    </message>
    <message>
        <source>Requests decoding at once (users); the bars are per user at this concurrency</source>
        <translation>同时解码的请求数（用户）；柱状图为此并发下的每用户数值</translation>
    </message>
    <message>
        <source>Tokens already in the KV cache while decoding</source>
        <translation>解码时 KV 缓存中已有的 token 数</translation>
    </message>
    <message>
        <source>Length of a Chinese answer in characters</source>
        <translation>中文回答的字数</translation>
    </message>
    <message>
        <source>Calibration profile for the GPU predictions; automatic uses the profile measured on each GPU, else the TensorRT-LLM H200 profile</source>
        <translation>GPU 预测使用的校准配置；“自动”使用在该 GPU 上测得的配置，否则使用 TensorRT-LLM H200 配置</translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Users</source>
        <translation>用户(&amp;U)</translation>
    </message>
    <message>
        <source>Conte&amp;xt</source>
        <translation>上下文(&amp;X)</translation>
    </message>
    <message>
        <source>&amp;Agent steps</source>
        <translation>智能体步数(&amp;A)</translation>
    </message>
    <message>
        <source>× tokens</source>
        <translation>× token 数</translation>
    </message>
    <message>
        <source>Answer (c&amp;haracters)</source>
        <translation>回答字数(&amp;H)</translation>
    </message>
    <message>
        <source>Tokens/character</source>
        <translation>每字 token 数</translation>
    </message>
    <message>
        <source>to</source>
        <translation>至</translation>
    </message>
    <message>
        <source>GPU &amp;profile</source>
        <translation>GPU 校准配置(&amp;P)</translation>
    </message>
    <message>
        <source>automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>Agent workflow: steps (default: an example of 5 rounds)</source>
        <translation>智能体工作流：步数（默认：一个示例，5 轮）</translation>
    </message>
    <message>
        <source>Agent workflow: tokens generated per step (default: an example of 500)</source>
        <translation>智能体工作流：每步生成的 token 数（默认：一个示例，500）</translation>
    </message>
    <message>
        <source>Tokens per Chinese character, low end (default 0.56: Alibaba Cloud, one Qwen token is 1.5–1.8 characters, https://developer.aliyun.com/ask/689758)</source>
        <translation>每个汉字的 token 数，下限（默认 0.56：阿里云，一个通义千问 token 约为 1.5–1.8 个汉字，https://developer.aliyun.com/ask/689758）</translation>
    </message>
    <message>
        <source>Tokens per Chinese character, high end (default 0.67: Alibaba Cloud, one Qwen token is 1.5–1.8 characters, https://developer.aliyun.com/ask/689758)</source>
        <translation>每个汉字的 token 数，上限（默认 0.67：阿里云，一个通义千问 token 约为 1.5–1.8 个汉字，https://developer.aliyun.com/ask/689758）</translation>
    </message>
</context>
<context>
    <name>ws::views::ConcurrencyChart</name>
    <message>
        <source>Throughput vs speed per user, as concurrency grows</source>
        <translation>并发增加时的吞吐量与每用户速度</translation>
    </message>
    <message>
        <source>tokens/s per user (log)</source>
        <translation>每用户 token/秒（对数）</translation>
    </message>
    <message>
        <source>aggregate tokens/s (log)</source>
        <translation>总吞吐量 token/秒（对数）</translation>
    </message>
    <message>
        <source>chosen users</source>
        <translation>所选用户数</translation>
    </message>
    <message>
        <source>Each point is one concurrency (1, 2, 4, …) from the engine&apos;s predictor for that system. Hover a point for its concurrency.</source>
        <translation>每个点对应一个并发数（1、2、4……），来自该系统的引擎预测器。将鼠标悬停在点上可查看并发数。</translation>
    </message>
    <message>
        <source>%1: ≤ %2</source>
        <translation>%1：≤ %2</translation>
    </message>
    <message>
        <source>requests that fit in memory: %1</source>
        <translation>内存可容纳的请求数：%1</translation>
    </message>
    <message>
        <source>%1, concurrency %2: %3 tokens/s per user, %4 tokens/s in all (engine prediction)</source>
        <translation>%1，并发 %2：每用户 %3 token/秒，总计 %4 token/秒（引擎预测）</translation>
    </message>
    <message>
        <source>%1, measured</source>
        <translation>%1，实测</translation>
    </message>
</context>
<context>
    <name>ws::views::CostChart</name>
    <message>
        <source>Published API price: $%1 per million output tokens%2 — %3 (%4)
Source: %5
Date: %6
Configuration: %7; speculative decoding: %8
A price, not a cost: the provider&apos;s margin and batching are in it.</source>
        <translation>公开 API 价格：每百万输出 token $%1%2 — %3（%4）
来源：%5
日期：%6
配置：%7；推测解码：%8
这是价格而非成本：其中包含服务商的利润和批处理。</translation>
    </message>
    <message>
        <source>, $%1 per million input tokens</source>
        <translation>，每百万输入 token $%1</translation>
    </message>
    <message>
        <source>%1, concurrency %2: $%3 per million output tokens (range %4 – %5) at %6 tokens/s per user
= $%7 an hour for %8 devices / (%9 tokens/s in all × 3,600) × 10⁶ (engine prediction)
Hourly cost: %10</source>
        <translation>%1，并发 %2：每百万输出 token $%3（范围 %4 – %5），每用户 %6 token/秒
= %8 台设备每小时 $%7 / (总计 %9 token/秒 × 3,600) × 10⁶（引擎预测）
每小时成本：%10</translation>
    </message>
    <message>
        <source>Cost per million output tokens vs speed per user, as concurrency grows</source>
        <translation>随并发增长：每百万输出 token 成本与每用户速度</translation>
    </message>
    <message>
        <source>tokens/s per user (log)</source>
        <translation>每用户 token/秒（对数）</translation>
    </message>
    <message>
        <source>$ per million output tokens (log)</source>
        <translation>每百万输出 token 美元（对数）</translation>
    </message>
    <message>
        <source>chosen users</source>
        <translation>所选用户数</translation>
    </message>
    <message>
        <source>Each point is one concurrency (1, 2, 4, …): the devices&apos; hourly cost over the tokens they produce in an hour. Bands: the speed range and the hourly cost range. Dashed: a provider&apos;s published API price. Hover a point for its source.</source>
        <translation>每个点是一个并发数（1、2、4……）：设备每小时成本除以其一小时产出的 token。色带：速度范围与每小时成本范围。虚线：服务商公开的 API 价格。悬停查看来源。</translation>
    </message>
    <message>
        <source>The system whose hourly cost you set</source>
        <translation>要设置每小时成本的系统</translation>
    </message>
    <message>
        <source> per device-hour</source>
        <translation> 每设备小时</translation>
    </message>
    <message>
        <source>Hourly cost of one device (GPU, wafer system or chip); the cost of all devices is this times their count</source>
        <translation>单台设备（GPU、晶圆系统或芯片）的每小时成本；所有设备的成本为此值乘以设备数</translation>
    </message>
    <message>
        <source>Reset to preset</source>
        <translation>恢复预设</translation>
    </message>
    <message>
        <source>Back to the hardware preset&apos;s hourly cost and its source</source>
        <translation>恢复硬件预设的每小时成本及其来源</translation>
    </message>
    <message>
        <source>Hourly cost:</source>
        <translation>每小时成本：</translation>
    </message>
    <message>
        <source>%1 API price</source>
        <translation>%1 API 价格</translation>
    </message>
    <message>
        <source>your figure (preset: $%1)</source>
        <translation>你的数值（预设：$%1）</translation>
    </message>
    <message>
        <source>preset: %1</source>
        <translation>预设：%1</translation>
    </message>
    <message>
        <source> on %1 devices</source>
        <translation>（%1 台设备）</translation>
    </message>
    <message>
        <source>cost = price at %1 users, or %2 % busy at %3</source>
        <translation>%1 个用户时成本 = 价格，或 %3 个用户时设备忙碌 %2 %</translation>
    </message>
    <message>
        <source>cost %1× the price even at %2 users</source>
        <translation>即使 %2 个用户，成本仍为价格的 %1 倍</translation>
    </message>
    <message>
        <source>Even at %1 users decoding at once%2 (the cheapest this prediction finds) with the devices busy every hour, the predicted cost ($%3 per million) is %4× the price: the provider runs more users per device, shorter contexts, cheaper hours or a faster stack than this prediction.</source>
        <translation>即使 %1 个用户同时解码%2（本预测找到的最便宜配置）且设备每小时都满负荷，预测成本（每百万 $%3）仍是价格的 %4 倍：服务商每台设备承载更多用户、使用更短的上下文、更便宜的机时或比本预测更快的软件栈。</translation>
    </message>
    <message>
        <source>The predicted cost equals the price at about %1 users decoding at once (%2 tokens/s each) with the devices busy every hour; at %3 users%4 (the cheapest, $%5 per million) the devices need be busy only %6 % of the hours.</source>
        <translation>约 %1 个用户同时解码（每人 %2 token/s）且设备每小时都满负荷时，预测成本等于价格；在 %3 个用户%4（最便宜，每百万 $%5）时，设备只需在 %6 % 的时间里忙碌。</translation>
    </message>
</context>
<context>
    <name>ws::views::DataflowTables</name>
    <message>
        <source>Phase</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Cycles</source>
        <translation>周期</translation>
    </message>
    <message>
        <source>µs</source>
        <translation>µs</translation>
    </message>
    <message>
        <source>% of token</source>
        <translation>占 token 的 %</translation>
    </message>
    <message>
        <source>Constant</source>
        <translation>常数</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>Unit</source>
        <translation>单位</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
</context>
<context>
    <name>ws::views::DefectsPanel</name>
    <message>
        <source>%1 µs</source>
        <translation>%1 微秒</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>Computing the remap…</source>
        <translation>正在计算重映射…</translation>
    </message>
    <message>
        <source>%1 (%2 × %3)</source>
        <translation>%1（%2 × %3）</translation>
    </message>
    <message>
        <source>%1 cores (%2%)</source>
        <translation>%1 个核（%2%）</translation>
    </message>
    <message>
        <source>%1 on 1 wafer</source>
        <translation>%1（1 片晶圆）</translation>
    </message>
    <message>
        <source>%1 on %2 wafers</source>
        <translation>%1（%2 片晶圆）</translation>
    </message>
    <message>
        <source>%1%2 (%1%3%)</source>
        <translation>%1%2（%1%3%）</translation>
    </message>
    <message>
        <source>No prediction: %1</source>
        <translation>无预测：%1</translation>
    </message>
    <message>
        <source>Defects</source>
        <translation>缺陷</translation>
    </message>
    <message>
        <source>Yield</source>
        <translation>良率</translation>
    </message>
    <message>
        <source>Inject</source>
        <translation>注入</translation>
    </message>
    <message>
        <source>Redundancy</source>
        <translation>冗余</translation>
    </message>
    <message>
        <source>Remap</source>
        <translation>重映射</translation>
    </message>
    <message>
        <source>the hardware preset</source>
        <translation>硬件预设</translation>
    </message>
    <message>
        <source>D0 (defects/mm²)</source>
        <translation>D0（缺陷/mm²）</translation>
    </message>
    <message>
        <source>Defect density D0. Each core dies with p = 1 − exp(−D0 · a_c), the Poisson model ([Yield-models] in docs/sources.md), with core area a_c = %1 mm² from the %2 preset.</source>
        <translation>缺陷密度 D0。每个核以 p = 1 − exp(−D0 · a_c) 的概率失效，即泊松模型（docs/sources.md 中的 [Yield-models]），核面积 a_c = %1 mm²，取自 %2 预设。</translation>
    </message>
    <message>
        <source>Cluster α</source>
        <translation>聚集 α</translation>
    </message>
    <message>
        <source>Negative-binomial clustering: each die&apos;s density is drawn from Gamma(α, D0/α), then Poisson as above. Smaller α clusters more.</source>
        <translation>负二项聚集：每个裸片的密度取自 Gamma(α, D0/α)，再按上述泊松模型抽取。α 越小，缺陷越聚集。</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <source>Random draws are repeatable: the same seed kills the same cores. Each draw moves the seed on by one.</source>
        <translation>随机抽取可重复：相同的种子使相同的核失效。每次抽取后种子加一。</translation>
    </message>
    <message>
        <source>Random (Poisson)</source>
        <translation>随机（泊松）</translation>
    </message>
    <message>
        <source>Clustered</source>
        <translation>聚集</translation>
    </message>
    <message>
        <source>Die (column, row)</source>
        <translation>裸片（列，行）</translation>
    </message>
    <message>
        <source>Die column, 1 to the preset&apos;s dies across</source>
        <translation>裸片列号，从 1 到预设的横向裸片数</translation>
    </message>
    <message>
        <source>Die row, 1 to the preset&apos;s dies down</source>
        <translation>裸片行号，从 1 到预设的纵向裸片数</translation>
    </message>
    <message>
        <source>Kill die</source>
        <translation>整片失效</translation>
    </message>
    <message>
        <source>Marks every core of the chosen reticle die dead.</source>
        <translation>将所选光罩裸片的所有核标记为失效。</translation>
    </message>
    <message>
        <source>Brush</source>
        <translation>画笔</translation>
    </message>
    <message>
        <source>Click or drag on the heatmap to mark cores dead or healthy (the heatmap switches to the Defects layer). Dragging then paints instead of panning.</source>
        <translation>在热力图上点击或拖动，将核标记为失效或正常（热力图切换到缺陷图层）。此时拖动为绘制而不是平移。</translation>
    </message>
    <message>
        <source>Kill cores</source>
        <translation>使核失效</translation>
    </message>
    <message>
        <source>Revive cores</source>
        <translation>恢复核</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Undo the last defect edit (Ctrl+Z)</source>
        <translation>撤销上一次缺陷编辑（Ctrl+Z）</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <source>Redo the edit undone last (Ctrl+Shift+Z)</source>
        <translation>重做上一次撤销的编辑（Ctrl+Shift+Z）</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <source>Marks every core healthy (can be undone).</source>
        <translation>将所有核标记为正常（可撤销）。</translation>
    </message>
    <message>
        <source>Scheme</source>
        <translation>方案</translation>
    </message>
    <message>
        <source>Row-shift segments</source>
        <translation>行移位分段</translation>
    </message>
    <message>
        <source>Die spare rows/columns</source>
        <translation>裸片备用行/列</translation>
    </message>
    <message>
        <source>Row-shift: each physical row is cut into segments of %1 primary + %2 spare cores (preset); a row&apos;s logical cores skip dead ones (after Cerebras&apos; patent US 11,328,208, [Cerebras-patent] in docs/sources.md). Die spare rows/columns: each die retires whole rows and columns holding dead cores ([Spare-rows-columns]), for comparison. Changing the scheme starts an empty map.</source>
        <translation>行移位：每个物理行被切分为 %1 个主核 + %2 个备用核的分段（预设）；该行的逻辑核跳过失效核（参照 Cerebras 专利 US 11,328,208，见 docs/sources.md 中的 [Cerebras-patent]）。裸片备用行/列：每个裸片停用含失效核的整行和整列（[Spare-rows-columns]），用于对比。更换方案会从空缺陷图开始。</translation>
    </message>
    <message>
        <source>Spares per die</source>
        <translation>每裸片备用数</translation>
    </message>
    <message>
        <source>Spare rows and spare columns per die for the die scheme. A parameter: no vendor publishes it.</source>
        <translation>裸片方案中每个裸片的备用行数和备用列数。这是一个参数：没有厂商公布该值。</translation>
    </message>
    <message>
        <source>Dead cores</source>
        <translation>失效核</translation>
    </message>
    <message>
        <source>Physical cores marked dead (spares included), from the defect map.</source>
        <translation>缺陷图中标记为失效的物理核（含备用核）。</translation>
    </message>
    <message>
        <source>Spares used</source>
        <translation>已用备用核</translation>
    </message>
    <message>
        <source>Spare-position cores that now host a logical core (engine remap).</source>
        <translation>现在承载逻辑核的备用位置核（引擎重映射）。</translation>
    </message>
    <message>
        <source>Shifted cores</source>
        <translation>移位核</translation>
    </message>
    <message>
        <source>Logical cores away from their nominal physical position (engine remap).</source>
        <translation>偏离其标称物理位置的逻辑核（引擎重映射）。</translation>
    </message>
    <message>
        <source>Unrepairable</source>
        <translation>不可修复</translation>
    </message>
    <message>
        <source>Row segments (or dies) with more dead cores than spares; their rows leave the logical mesh.</source>
        <translation>失效核多于备用核的行分段（或裸片）；其所在行被移出逻辑网格。</translation>
    </message>
    <message>
        <source>Usable cores</source>
        <translation>可用核</translation>
    </message>
    <message>
        <source>The rectangle placement may use after the remap (reserved border excluded).</source>
        <translation>重映射后放置可使用的矩形（不含保留边框）。</translation>
    </message>
    <message>
        <source>Capacity lost</source>
        <translation>容量损失</translation>
    </message>
    <message>
        <source>Usable cores without defects minus usable cores now.</source>
        <translation>无缺陷时的可用核数减去当前可用核数。</translation>
    </message>
    <message>
        <source>Hop stretch S_max</source>
        <translation>跳数拉伸 S_max</translation>
    </message>
    <message>
        <source>Worst line stretch over the placement&apos;s layer regions: hops(link) = 1 + skipped + δ (WaferScope&apos;s remap-cost model, option B: [WaferScope-model] in docs/sources.md).</source>
        <translation>放置的各层区域中最差的线路拉伸：hops(link) = 1 + 跳过数 + δ（WaferScope 的重映射代价模型，方案 B：docs/sources.md 中的 [WaferScope-model]）。</translation>
    </message>
    <message>
        <source>Time per token, no defects</source>
        <translation>每词元时间（无缺陷）</translation>
    </message>
    <message>
        <source>The wafer predictor for this model, precision and context on the fewest wafers that hold it.</source>
        <translation>晶圆预测器对该模型、精度和上下文的预测，使用能容纳模型的最少晶圆数。</translation>
    </message>
    <message>
        <source>Time per token, remapped</source>
        <translation>每词元时间（重映射后）</translation>
    </message>
    <message>
        <source>The same prediction on the remapped usable mesh, every hop costing S_max hops, on the fewest wafers that still hold the model (more wafers can make it faster).</source>
        <translation>在重映射后的可用网格上做同样的预测，每一跳计为 S_max 跳，使用仍能容纳模型的最少晶圆数（晶圆更多时可能更快）。</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>变化</translation>
    </message>
    <message>
        <source>After minus before.</source>
        <translation>之后减去之前。</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
</context>
<context>
    <name>ws::views::DeviceStrip</name>
    <message>
        <source>Wafer %1</source>
        <translation>晶圆 %1</translation>
    </message>
    <message>
        <source>Wafer %1 · draft</source>
        <translation>晶圆 %1 · 草稿</translation>
    </message>
    <message>
        <source>SRAM %1% used</source>
        <translation>已用 SRAM %1%</translation>
    </message>
    <message>
        <source>no SRAM data</source>
        <translation>无 SRAM 数据</translation>
    </message>
    <message>
        <source>Mean SRAM use over all cores of this wafer, from the engine&apos;s placement. Click to show this wafer.</source>
        <translation>该晶圆全部核心的平均 SRAM 占用，来自引擎的放置结果。点击以查看该晶圆。</translation>
    </message>
</context>
<context>
    <name>ws::views::DifferenceLayer</name>
    <message>
        <source>SRAM per core, B − A</source>
        <translation>每核心 SRAM，B − A</translation>
    </message>
    <message>
        <source>Region time per token, B − A</source>
        <translation>每 token 的区域时间，B − A</translation>
    </message>
    <message>
        <source>SRAM B − A: %1</source>
        <translation>SRAM B − A：%1</translation>
    </message>
    <message>
        <source>Region time B − A: %1 ms per token</source>
        <translation>区域时间 B − A：每 token %1 毫秒</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
</context>
<context>
    <name>ws::views::LayoutDeltaTable</name>
    <message>
        <source>Quantity</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>B − A</source>
        <translation>B − A</translation>
    </message>
    <message>
        <source>Tokens/s per user</source>
        <translation>每用户 token/秒</translation>
    </message>
    <message>
        <source>Time to first token (ms)</source>
        <translation>首 token 时间（毫秒）</translation>
    </message>
    <message>
        <source>Time per token (ms)</source>
        <translation>每 token 时间（毫秒）</translation>
    </message>
    <message>
        <source>Wafers</source>
        <translation>晶圆数</translation>
    </message>
    <message>
        <source>SRAM headroom</source>
        <translation>SRAM 余量</translation>
    </message>
    <message>
        <source>KV capacity (tokens)</source>
        <translation>KV 容量（token）</translation>
    </message>
    <message>
        <source>Requests that fit</source>
        <translation>可容纳的请求数</translation>
    </message>
    <message>
        <source>Aggregate tokens/s</source>
        <translation>总 token/秒</translation>
    </message>
    <message>
        <source>Time per token, %1 (ms)</source>
        <translation>每 token 时间，%1（毫秒）</translation>
    </message>
</context>
<context>
    <name>ws::views::LoaderInfo</name>
    <message>
        <source>%1 MB</source>
        <translation>%1 MB</translation>
    </message>
    <message>
        <source>%1 GB</source>
        <translation>%1 GB</translation>
    </message>
    <message>
        <source>%1 %2%</source>
        <translation>%1 %2%</translation>
    </message>
    <message>
        <source>%1 B parameters</source>
        <translation>%1 B 参数</translation>
    </message>
    <message>
        <source>%1 M parameters</source>
        <translation>%1 M 参数</translation>
    </message>
    <message>
        <source>tensors: %1</source>
        <translation>张量：%1</translation>
    </message>
    <message>
        <source>trained context %1</source>
        <translation>训练上下文 %1</translation>
    </message>
    <message>
        <source>needs %1: weights %2</source>
        <translation>需要 %1：权重 %2</translation>
    </message>
    <message>
        <source>%1 + KV cache %2 (%3 tokens, %4)</source>
        <translation>%1 + KV 缓存 %2（%3 个 token，%4）</translation>
    </message>
    <message>
        <source>%1 available</source>
        <translation>可用 %1</translation>
    </message>
    <message>
        <source>%1 &lt; 0.1%</source>
        <translation>%1 &lt; 0.1%</translation>
    </message>
</context>
<context>
    <name>ws::views::MeshEditor</name>
    <message>
        <source>Put the LM head on layer %1&apos;s region</source>
        <translation>将 LM 头放到第 %1 层的区域</translation>
    </message>
    <message>
        <source>Put the token embedding on layer %1&apos;s region</source>
        <translation>将词元嵌入放到第 %1 层的区域</translation>
    </message>
    <message>
        <source>Swap layers %1 and %2</source>
        <translation>交换第 %1 层和第 %2 层</translation>
    </message>
</context>
<context>
    <name>ws::views::MeshFigure</name>
    <message>
        <source>Wafer %1 of %2</source>
        <translation>晶圆 %1 / %2</translation>
    </message>
    <message>
        <source> · the draft model&apos;s own wafer</source>
        <translation> · 草稿模型自己的晶圆</translation>
    </message>
    <message>
        <source> · layer L%1</source>
        <translation> · 第 L%1 层</translation>
    </message>
    <message>
        <source> · layers L%1–L%2</source>
        <translation> · 第 L%1–L%2 层</translation>
    </message>
</context>
<context>
    <name>ws::views::MeshLayer</name>
    <message>
        <source>SRAM occupancy</source>
        <translation>SRAM 占用</translation>
    </message>
    <message>
        <source>Weight placement</source>
        <translation>权重放置</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>Dataflow</source>
        <translation>数据流</translation>
    </message>
    <message>
        <source>Defects</source>
        <translation>缺陷</translation>
    </message>
    <message>
        <source>Bytes placed on each core (weights and KV cache) as a share of its SRAM.</source>
        <translation>每个核心上放置的字节（权重和 KV 缓存）占其 SRAM 的比例。</translation>
    </message>
    <message>
        <source>Which transformer layer and matrix each core holds: hue = layer, shade = matrix kind.</source>
        <translation>每个核心存放哪一层的哪个矩阵：色相 = 层，明暗 = 矩阵类型。</translation>
    </message>
    <message>
        <source>KV cache bytes on each core at the chosen context, as a share of its SRAM.</source>
        <translation>在所选上下文长度下，每个核心上的 KV 缓存字节占其 SRAM 的比例。</translation>
    </message>
    <message>
        <source>Per-core activity during the current token.</source>
        <translation>当前 token 期间每个核心的活动。</translation>
    </message>
    <message>
        <source>Dead cores, spares in use and shifted cores.</source>
        <translation>失效核心、已启用的备用核心和移位核心。</translation>
    </message>
    <message>
        <source>Links</source>
        <translation>链路</translation>
    </message>
    <message>
        <source>Values</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>Words each mesh link carried for one token, as the mesh engine executed one layer.</source>
        <translation>网格引擎执行一层时，每条网格链路为一个词元传送的字数。</translation>
    </message>
    <message>
        <source>What each core computed for one token with the loaded model&apos;s weights: the signed sum of its partial products.</source>
        <translation>每个核心用已加载模型的权重为一个词元算出的结果：其部分积的带符号和。</translation>
    </message>
</context>
<context>
    <name>ws::views::MeshLegend</name>
    <message>
        <source>Attention Q/K/V</source>
        <translation>注意力 Q/K/V</translation>
    </message>
    <message>
        <source>Attention output</source>
        <translation>注意力输出</translation>
    </message>
    <message>
        <source>FFN up/gate</source>
        <translation>FFN 上投影/门控</translation>
    </message>
    <message>
        <source>FFN down</source>
        <translation>FFN 下投影</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>Embedding</source>
        <translation>嵌入</translation>
    </message>
    <message>
        <source>LM head</source>
        <translation>LM 输出头</translation>
    </message>
    <message>
        <source>Healthy</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>Dead</source>
        <translation>失效</translation>
    </message>
    <message>
        <source>Spare in use</source>
        <translation>已启用备用</translation>
    </message>
    <message>
        <source>Spare, idle</source>
        <translation>备用，空闲</translation>
    </message>
    <message>
        <source>Shifted</source>
        <translation>已移位</translation>
    </message>
    <message>
        <source>Reserved (I/O)</source>
        <translation>保留（I/O）</translation>
    </message>
    <message>
        <source>share of %1 SRAM per core</source>
        <translation>占每核 %1 SRAM 的比例</translation>
    </message>
    <message>
        <source>share of core SRAM</source>
        <translation>占核心 SRAM 的比例</translation>
    </message>
    <message>
        <source>hue = transformer layer</source>
        <translation>色相 = Transformer 层</translation>
    </message>
    <message>
        <source>blue: forwarding, orange: computing; dim: earlier</source>
        <translation>蓝：转发，橙：计算；暗：较早</translation>
    </message>
    <message>
        <source>L%1</source>
        <translation>L%1</translation>
    </message>
    <message>
        <source>Draft model (speculative decoding)</source>
        <translation>草稿模型（推测解码）</translation>
    </message>
    <message>
        <source>words leaving each core&apos;s router; lines: each link</source>
        <translation>离开每个核心路由器的字数；线条：每条链路</translation>
    </message>
    <message>
        <source>no mesh engine run: choose a layer to execute</source>
        <translation>尚无网格引擎运行：请选择要执行的层</translation>
    </message>
    <message>
        <source>signed sum of each core&apos;s partial products</source>
        <translation>每个核心部分积的带符号和</translation>
    </message>
    <message>
        <source>no values: they need a loaded model&apos;s weights</source>
        <translation>无数值：需要已加载模型的权重</translation>
    </message>
    <message>
        <source>%1 M</source>
        <translation>%1 M</translation>
    </message>
    <message>
        <source>%1 k</source>
        <translation>%1 k</translation>
    </message>
    <message>
        <source>share of %1 SRAM per core; half the colours over 80–100%</source>
        <translation>占每核 %1 SRAM 的比例；一半颜色用于 80–100%</translation>
    </message>
    <message>
        <source>share of core SRAM; half the colours over 80–100%</source>
        <translation>占核心 SRAM 的比例；一半颜色用于 80–100%</translation>
    </message>
</context>
<context>
    <name>ws::views::MeshOverlay</name>
    <message>
        <source>to wafer %1</source>
        <translation>到晶圆 %1</translation>
    </message>
    <message>
        <source>from wafer %1</source>
        <translation>来自晶圆 %1</translation>
    </message>
</context>
<context>
    <name>ws::views::MeshView</name>
    <message>
        <source>No placement to show</source>
        <translation>没有可显示的放置结果</translation>
    </message>
    <message>
        <source> · the draft model&apos;s own wafer</source>
        <translation> · 草稿模型自己的晶圆</translation>
    </message>
    <message>
        <source>Core (%1, %2) on wafer %3</source>
        <translation>晶圆 %3 上的核心 (%1, %2)</translation>
    </message>
    <message>
        <source>SRAM used: %1% of %2 (%3)</source>
        <translation>已用 SRAM：%2 的 %1%（%3）</translation>
    </message>
    <message>
        <source>Holds: nothing placed</source>
        <translation>存放：无</translation>
    </message>
    <message>
        <source>Holds: layer %1, %2</source>
        <translation>存放：第 %1 层，%2</translation>
    </message>
    <message>
        <source>Holds: %1</source>
        <translation>存放：%1</translation>
    </message>
    <message>
        <source>KV cache: %1% of SRAM (%2)</source>
        <translation>KV 缓存：占 SRAM 的 %1%（%2）</translation>
    </message>
    <message>
        <source>Numbers from the engine&apos;s placement. Click for details.</source>
        <translation>数字来自引擎的放置结果。点击查看详情。</translation>
    </message>
    <message>
        <source>Over SRAM by %1: this core cannot hold what the layout puts on it</source>
        <translation>超出 SRAM %1：此核心放不下布局分配给它的内容</translation>
    </message>
    <message>
        <source>Wafer %1 of %2</source>
        <translation>第 %1 片晶圆（共 %2 片）</translation>
    </message>
    <message>
        <source>%1 px per core</source>
        <translation>每核 %1 像素</translation>
    </message>
    <message>
        <source>%1 · %2 × %3 cores · %4</source>
        <translation>%1 · %2 × %3 核 · %4</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source> · turned a quarter to fit</source>
        <translation> · 旋转 90° 以铺满</translation>
    </message>
</context>
<context>
    <name>ws::views::PlaybackBar</name>
    <message>
        <source>%1 / %2 µs · cycle %3</source>
        <translation>%1 / %2 µs · 第 %3 周期</translation>
    </message>
    <message>
        <source>Pause (Space)</source>
        <translation>暂停（空格）</translation>
    </message>
    <message>
        <source>Play (Space)</source>
        <translation>播放（空格）</translation>
    </message>
    <message>
        <source>between phases</source>
        <translation>阶段之间</translation>
    </message>
    <message>
        <source>no schedule</source>
        <translation>无调度</translation>
    </message>
    <message>
        <source>Previous phase (Left)</source>
        <translation>上一阶段（左方向键）</translation>
    </message>
    <message>
        <source>Next phase (Right)</source>
        <translation>下一阶段（右方向键）</translation>
    </message>
    <message>
        <source>Time into the token</source>
        <translation>当前 token 内的时间</translation>
    </message>
    <message>
        <source>Time dilation: wafer time shown per second</source>
        <translation>时间缩放：每秒显示的晶圆时间</translation>
    </message>
    <message>
        <source>%1 ms / s</source>
        <translation>%1 ms / 秒</translation>
    </message>
    <message>
        <source>%1 µs / s</source>
        <translation>%1 µs / 秒</translation>
    </message>
    <message>
        <source>Wafer time of one token in this timetable: the closed forms with the calibration&apos;s constants for WaferLLM&apos;s published kernels (Timing constants tab), the mesh engine&apos;s reference. Predictions of a serving stack (Layout dock, comparison, CLI) scale the kernels&apos; cycles by the stack&apos;s fitted factor.</source>
        <translation>此时间表中一个词元的晶圆时间：按 WaferLLM 公开内核的校准常数计算的闭式公式（“时序常数”标签页），即网格引擎的参照。服务软件栈的预测（布局停靠窗口、对比、CLI）按该软件栈拟合的系数缩放内核的周期数。</translation>
    </message>
</context>
<context>
    <name>ws::views::RaceChart</name>
    <message>
        <source>Send a prompt: every system races to the same answer.</source>
        <translation>发送一个提示词：所有系统竞速生成同一个回答。</translation>
    </message>
    <message>
        <source>%1 (measured)</source>
        <translation>%1（实测）</translation>
    </message>
</context>
<context>
    <name>ws::views::RaceLane</name>
    <message>
        <source>Filled: tokens out so far. Black line: where a human reader would be.</source>
        <translation>填充部分：已输出的 token。黑线：人类读者读到的位置。</translation>
    </message>
    <message>
        <source>%1 / %2 tokens   %3 tokens/s   %4 s</source>
        <translation>%1 / %2 个 token   %3 token/秒   %4 秒</translation>
    </message>
    <message>
        <source>Filled: tokens out so far. Black line: where a human reader would be. ◇: where the published figure would be.

%1</source>
        <translation>填充：目前已输出的 token。黑线：人类读者所在位置。◇：按公开数值应在的位置。

%1</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;font-size:13pt; font-weight:600; color:%1&apos;&gt;%2&lt;/span&gt; &lt;span style=&apos;color:%4&apos;&gt;predicted %3 tokens/s&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;font-size:13pt; font-weight:600; color:%1&apos;&gt;%2&lt;/span&gt; &lt;span style=&apos;color:%4&apos;&gt;预测 %3 token/秒&lt;/span&gt;</translation>
    </message>
    <message>
        <source> &lt;span style=&apos;color:%2&apos;&gt;◇ published %1&lt;/span&gt;</source>
        <translation> &lt;span style=&apos;color:%2&apos;&gt;◇ 公开 %1&lt;/span&gt;</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source> &lt;span style=&apos;color:%2&apos;&gt;· first token %1&lt;/span&gt;</source>
        <translation> &lt;span style=&apos;color:%2&apos;&gt;· 首 token %1&lt;/span&gt;</translation>
    </message>
    <message>
        <source>

First token: the predicted time to first token for the compared prompt (a wafer: the prompt&apos;s chunks pipelined through its layers at the pace fitted on WaferLLM&apos;s measured prefill; a GPU or an LPU: its predictor&apos;s prefill of the prompt).</source>
        <translation>

首 token：对所比较提示词预测的首 token 延迟（晶圆：提示词分块以流水线方式流经各层，速度按 WaferLLM 实测预填充拟合；GPU 或 LPU：其预测器对该提示词的预填充）。</translation>
    </message>
</context>
<context>
    <name>ws::views::RangeBarChart</name>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>calibration row (fitted)</source>
        <translation>校准行（参与拟合）</translation>
    </message>
    <message>
        <source>your measurements</source>
        <translation>您的测量数据</translation>
    </message>
    <message>
        <source>reference row (not fitted)</source>
        <translation>参考行（未参与拟合）</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Measured: %1 %2 — %3
Source: %4
Date: %5
Configuration: %6
Concurrency %7%8; speculative decoding: %9</source>
        <translation>实测：%1 %2 — %3
来源：%4
日期：%5
配置：%6
并发 %7%8；推测解码：%9</translation>
    </message>
    <message>
        <source>not stated</source>
        <translation>未说明</translation>
    </message>
    <message>
        <source> (the service&apos;s batch is not known)</source>
        <translation>（服务端的批大小未知）</translation>
    </message>
    <message>
        <source>Doubtful: %1</source>
        <translation>存疑：%1</translation>
    </message>
    <message>
        <source>◆ published or measured figures (hover for the source)</source>
        <translation>◆ 公开或实测数据（悬停查看来源）</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>未知</translation>
    </message>
</context>
<context>
    <name>ws::views::RooflineChart</name>
    <message>
        <source>Roofline: decode at the chosen batch</source>
        <translation>屋顶线：所选批量下的解码</translation>
    </message>
    <message>
        <source>arithmetic intensity (FLOPs per byte moved)</source>
        <translation>算术强度（每搬运一字节的 FLOPs）</translation>
    </message>
    <message>
        <source>FLOP/s</source>
        <translation>FLOP/s</translation>
    </message>
    <message>
        <source>%1: %2 FLOPs per byte at batch %3, %4 FLOP/s achieved
roofs: %5 FLOP/s compute, %6 B/s memory (ridge at %7 FLOPs per byte); %8-bound ceiling %9 tokens/s</source>
        <translation>%1：批量 %3 时每字节 %2 FLOPs，实际 %4 FLOP/s
屋顶：算力 %5 FLOP/s，内存 %6 B/s（拐点 %7 FLOPs/字节）；%8 约束上限 %9 tokens/s</translation>
    </message>
</context>
<context>
    <name>ws::views::SpeculativePanel</name>
    <message>
        <source>&lt;b&gt;Speculative decoding&lt;/b&gt;: a small draft model proposes k tokens one at a time and the target model verifies k + 1 in one pass; a step yields E = (1 − a&lt;sup&gt;k+1&lt;/sup&gt;) / (1 − a) tokens at acceptance rate a. In plain target tokens the step costs k × c for the drafts (c: a draft token&apos;s time over a target token&apos;s) plus v for the verify, so it pays only when k c + v &amp;lt; E. On a GPU the k + 1 tokens share one pass over the weights (v ≈ 1); on a wafer each core also reads its weights once for the k + 1 tokens and pays only its SIMD time per further token, so v stays well under k + 1 (a slow draft can still make it lose).</source>
        <translation>&lt;b&gt;推测解码&lt;/b&gt;：小型草稿模型逐个提出 k 个 token，目标模型一次验证 k + 1 个；接受率为 a 时每步产出 E = (1 − a&lt;sup&gt;k+1&lt;/sup&gt;) / (1 − a) 个 token。以普通目标 token 为单位，每步的草稿成本为 k × c（c：草稿 token 时间与目标 token 时间之比），验证成本为 v，因此只有当 k c + v &amp;lt; E 时才划算。在 GPU 上 k + 1 个 token 共享一次权重读取（v ≈ 1）；在晶圆上每个核心同样只为 k + 1 个 token 读取一次权重，每多一个 token 只多付出其 SIMD 运算时间，因此 v 远小于 k + 1（草稿过慢时仍可能得不偿失）。</translation>
    </message>
    <message>
        <source>off here; the vendor runs it (see the tooltip)</source>
        <translation>此处关闭；厂商在使用（见提示）</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>E = %1 tokens per step; drafts %2 + verify %3 = %4 target tokens</source>
        <translation>E = 每步 %1 个 token；草稿 %2 + 验证 %3 = %4 个目标 token</translation>
    </message>
    <message>
        <source>%1 tokens/s, %2× slower than %3 without it: %4 &gt; E%5</source>
        <translation>%1 token/秒，比不用时的 %3 慢 %2×：%4 &gt; E%5</translation>
    </message>
    <message>
        <source> (the verify alone costs more than a step yields)</source>
        <translation>（仅验证的成本就超过一步的产出）</translation>
    </message>
    <message>
        <source>%1 tokens/s, %2× faster than %3 without it: %4 &lt; E</source>
        <translation>%1 token/秒，比不用时的 %3 快 %2×：%4 &lt; E</translation>
    </message>
    <message>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>Draft model</source>
        <translation>草稿模型</translation>
    </message>
    <message>
        <source>Draft tokens k</source>
        <translation>草稿 token 数 k</translation>
    </message>
    <message>
        <source>Acceptance a</source>
        <translation>接受率 a</translation>
    </message>
    <message>
        <source>Effect (engine prediction)</source>
        <translation>效果（引擎预测）</translation>
    </message>
    <message>
        <source>default draft</source>
        <translation>默认草稿</translation>
    </message>
    <message>
        <source>default draft (none shares the vocabulary)</source>
        <translation>默认草稿（没有共享词表的模型）</translation>
    </message>
    <message>
        <source>default: %1</source>
        <translation>默认：%1</translation>
    </message>
    <message>
        <source>Vendor: %1
Draft tokens k (default %2): %3
Acceptance a (default %4): %5</source>
        <translation>厂商：%1
草稿 token 数 k（默认 %2）：%3
接受率 a（默认 %4）：%5</translation>
    </message>
    <message>
        <source>The draft must share the target&apos;s vocabulary (verification compares token ids); the default is the smallest preset of the same family and vocabulary. On a wafer the draft holds its own strip of cores beside the target (the fewest columns that hold it), the target the rest, and each is timed on its own cores.</source>
        <translation>草稿模型必须与目标模型共用词表（验证比较 token id）；默认值是同一系列、同一词表中最小的预设。在晶圆上，草稿模型在目标模型旁边占有自己的一条核心（能容纳它的最少列数），目标模型占其余核心，二者各自在自己的核心上计时。</translation>
    </message>
    <message>
        <source>; the draft on its own %1 cores (%2% of the %3 usable cores of a wafer), %4 ms per step for its k draft tokens</source>
        <translation>；草稿模型占用自己的 %1 个核心（一块晶圆 %3 个可用核心的 %2%），其 k 个草稿 token 每步 %4 毫秒</translation>
    </message>
    <message>
        <source>; the draft on a wafer of its own (the last of %1, %2 cores), %3 ms per step for its k draft tokens</source>
        <translation>；草稿模型占用一块自己的晶圆（%1 块中的最后一块，%2 个核心），其 k 个草稿 token 每步 %3 毫秒</translation>
    </message>
</context>
<context>
    <name>ws::views::SweepChart</name>
    <message>
        <source>Tokens/s per user over %1 (down) and %2 (across): %3 (darkest) to %4 (brightest)</source>
        <translation>每用户 token/秒，纵向为 %1，横向为 %2：%3（最暗）到 %4（最亮）</translation>
    </message>
    <message>
        <source>tokens/s per user</source>
        <translation>每用户 token/秒</translation>
    </message>
    <message>
        <source>points (click to open as B)</source>
        <translation>数据点（点击以作为 B 打开）</translation>
    </message>
    <message>
        <source>Tokens/s per user over %1</source>
        <translation>每用户 token/秒 随 %1 的变化</translation>
    </message>
    <message>
        <source>sweep points (click to open as B)</source>
        <translation>扫描点（点击以作为 B 打开）</translation>
    </message>
    <message>
        <source>Pareto front</source>
        <translation>帕累托前沿</translation>
    </message>
    <message>
        <source>Pareto view: tokens/s per user against KV capacity</source>
        <translation>帕累托视图：每用户 token/秒 与 KV 容量</translation>
    </message>
    <message>
        <source>Pareto view: tokens/s per user against wafers</source>
        <translation>帕累托视图：每用户 token/秒 与晶圆数</translation>
    </message>
    <message>
        <source>KV capacity (tokens per layer region)</source>
        <translation>KV 容量（每个层区域的 token 数）</translation>
    </message>
    <message>
        <source>wafers</source>
        <translation>晶圆数</translation>
    </message>
</context>
<context>
    <name>ws::views::TimelineChart</name>
    <message>
        <source>embedding</source>
        <translation>嵌入</translation>
    </message>
    <message>
        <source>attention RMSNorm</source>
        <translation>注意力 RMSNorm</translation>
    </message>
    <message>
        <source>QKV projection</source>
        <translation>QKV 投影</translation>
    </message>
    <message>
        <source>RoPE</source>
        <translation>RoPE</translation>
    </message>
    <message>
        <source>attention scores</source>
        <translation>注意力分数</translation>
    </message>
    <message>
        <source>softmax</source>
        <translation>softmax</translation>
    </message>
    <message>
        <source>scores × V</source>
        <translation>分数 × V</translation>
    </message>
    <message>
        <source>output projection</source>
        <translation>输出投影</translation>
    </message>
    <message>
        <source>FFN RMSNorm</source>
        <translation>FFN RMSNorm</translation>
    </message>
    <message>
        <source>MoE router</source>
        <translation>MoE 路由</translation>
    </message>
    <message>
        <source>MoE dispatch</source>
        <translation>MoE 分发</translation>
    </message>
    <message>
        <source>FFN gate/up</source>
        <translation>FFN gate/up 投影</translation>
    </message>
    <message>
        <source>FFN down</source>
        <translation>FFN down 投影</translation>
    </message>
    <message>
        <source>MoE combine</source>
        <translation>MoE 合并</translation>
    </message>
    <message>
        <source>residual</source>
        <translation>残差</translation>
    </message>
    <message>
        <source>KV shift</source>
        <translation>KV 移位</translation>
    </message>
    <message>
        <source>hop to next layer</source>
        <translation>传到下一层</translation>
    </message>
    <message>
        <source>hop to next wafer</source>
        <translation>传到下一晶圆</translation>
    </message>
    <message>
        <source>final RMSNorm</source>
        <translation>最终 RMSNorm</translation>
    </message>
    <message>
        <source>LM head</source>
        <translation>LM head</translation>
    </message>
    <message>
        <source>argmax</source>
        <translation>argmax</translation>
    </message>
    <message>
        <source>token feedback</source>
        <translation>token 回送</translation>
    </message>
    <message>
        <source>L%1 · %2</source>
        <translation>L%1 · %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;cycles %2 – %3 (%4 cycles, %5 µs)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;周期 %2 – %3（%4 周期，%5 µs）</translation>
    </message>
    <message>
        <source>&lt;br&gt;local compute %1 cycles, %2 MACs per core</source>
        <translation>&lt;br&gt;本地计算 %1 周期，每核 %2 次乘加</translation>
    </message>
    <message>
        <source>&lt;br&gt;%1 allreduce(s) along %2 over %3 cores, %4 cycles each</source>
        <translation>&lt;br&gt;沿 %2 方向在 %3 个核上做 %1 次全归约（all-reduce），每次 %4 周期</translation>
    </message>
    <message>
        <source>&lt;br&gt;cores only forward (wafer %1 → %2)</source>
        <translation>&lt;br&gt;核仅转发（晶圆 %1 → %2）</translation>
    </message>
    <message>
        <source>local compute</source>
        <translation>本地计算</translation>
    </message>
    <message>
        <source>allreduce</source>
        <translation>全归约（allreduce）</translation>
    </message>
    <message>
        <source>forwarding (hops)</source>
        <translation>转发（跳）</translation>
    </message>
    <message>
        <source>wafer time (µs)</source>
        <translation>晶圆时间（µs）</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>&lt;br&gt;the first token, from the prompt&apos;s last chunk</source>
        <translation>&lt;br&gt;首 token，来自提示词的最后一块</translation>
    </message>
    <message>
        <source>&lt;br&gt;prompt chunk %1 of %2 (tokens %3 – %4)</source>
        <translation>&lt;br&gt;提示词第 %1 块，共 %2 块（token %3 – %4）</translation>
    </message>
    <message>
        <source>&lt;br&gt;µs at the predictor&apos;s prefill pace: the timing model&apos;s cycles × %1 (fitted on WaferLLM&apos;s measured prefill)</source>
        <translation>&lt;br&gt;按预测器的预填充速度计的微秒：时序模型的周期 × %1（根据 WaferLLM 实测预填充拟合）</translation>
    </message>
    <message>
        <source>prefill, %1 tokens</source>
        <translation>预填充，%1 个 token</translation>
    </message>
    <message>
        <source>prefill</source>
        <translation>预填充</translation>
    </message>
</context>
<context>
    <name>ws::views::TokenRace</name>
    <message>
        <source>&lt;b&gt;The same answer, at each system&apos;s predicted pace&lt;/b&gt;</source>
        <translation>&lt;b&gt;同一个回答，按各系统的预测速度输出&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Restart</source>
        <translation>重新开始</translation>
    </message>
    <message>
        <source>real time</source>
        <translation>实时</translation>
    </message>
    <message>
        <source>▍ black line: a human reader at %1 tokens/s</source>
        <translation>▍ 黑线：以 %1 token/秒阅读的人类读者</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Time for the answer so far: this CPU measured, the other systems predicted.</source>
        <translation>目前回答所用时间：本机 CPU 为实测值，其他系统为预测值。</translation>
    </message>
    <message>
        <source>This CPU</source>
        <translation>本机 CPU</translation>
    </message>
    <message>
        <source>Time for the %1 tokens so far: this CPU measured, the other systems predicted.</source>
        <translation>目前 %1 个 token 所用时间：本机 CPU 为实测值，其他系统为预测值。</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Save the race as PNG or SVG, or its figures (paces, tokens out, published speeds) as CSV or JSON</source>
        <translation>将竞速保存为 PNG 或 SVG，或将其数据（速度、已输出 token、公开速度）保存为 CSV 或 JSON</translation>
    </message>
    <message>
        <source>Token race</source>
        <translation>Token 竞速</translation>
    </message>
    <message>
        <source>Slow motion: how fast race time runs against wall time. Demo pace: the slowest lane comes out at a human reader&apos;s pace.</source>
        <translation>慢动作：比赛时间相对真实时间的速度。演示速度：最慢的赛道以人类阅读速度输出。</translation>
    </message>
    <message>
        <source>demo pace</source>
        <translation>演示速度</translation>
    </message>
    <message>
        <source>slowed %1×</source>
        <translation>放慢 %1×</translation>
    </message>
    <message>
        <source>Race time against wall time</source>
        <translation>比赛时间相对真实时间</translation>
    </message>
    <message>
        <source>Demo pace: every lane&apos;s first token at its predicted time, then its tokens %1 times slower than real time, so that the slowest lane comes out at a human reader&apos;s %2 tokens/s.</source>
        <translation>演示速度：每条赛道的首个 token 按其预测时间出现，之后的 token 比实际慢 %1 倍，使最慢的赛道以人类读者的 %2 token/s 输出。</translation>
    </message>
</context>
<context>
    <name>ws::views::Units</name>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>%1 B</source>
        <translation>%1 B</translation>
    </message>
    <message>
        <source>%1 KiB</source>
        <translation>%1 KiB</translation>
    </message>
    <message>
        <source>%1 MB</source>
        <translation>%1 MB</translation>
    </message>
    <message>
        <source>%1 GB</source>
        <translation>%1 GB</translation>
    </message>
</context>
<context>
    <name>ws::views::YieldPanel</name>
    <message>
        <source>Yield against defect density: classical models for %1 mm² without spares; redundant wafer with %2 + %3 segments (%4 % spares)</source>
        <translation>良率与缺陷密度的关系：无备用核心的 %1 mm² 经典模型；带 %2 + %3 分段冗余的晶圆（%4 % 备用）</translation>
    </message>
    <message>
        <source>Yield against defect density</source>
        <translation>良率与缺陷密度</translation>
    </message>
    <message>
        <source>Defect density D0 (defects per mm²)</source>
        <translation>缺陷密度 D0（每 mm² 缺陷数）</translation>
    </message>
    <message>
        <source>Yield</source>
        <translation>良率</translation>
    </message>
    <message>
        <source>Poisson</source>
        <translation>泊松</translation>
    </message>
    <message>
        <source>Murphy</source>
        <translation>Murphy</translation>
    </message>
    <message>
        <source>Seeds</source>
        <translation>Seeds</translation>
    </message>
    <message>
        <source>Negative binomial α = %1</source>
        <translation>负二项 α = %1</translation>
    </message>
    <message>
        <source>Redundant wafer</source>
        <translation>冗余晶圆</translation>
    </message>
    <message>
        <source>Monte Carlo (remap)</source>
        <translation>蒙特卡洛（重映射）</translation>
    </message>
</context>
</TS>

# Shared by decode_vs_llama.sh and prompt_vs_llama.sh (sourced, not run): the usage text from the caller's
# header, the options both take, and the median both report.

# Prints the calling script's opening comment (its usage) and exits 2 when fewer than 3 arguments were given.
vs_llama_usage() {
    local script=$1
    shift
    if [[ $# -lt 3 ]]; then
        awk 'NR > 1 && !/^#/ {exit} NR > 1 {sub(/^# ?/, ""); print}' "$script"
        exit 2
    fi
}

# Reads [--rounds N] [--tokens N] [--threads "1 2"] MODEL... into rounds, tokens, threads and models (the
# caller sets the defaults first).
vs_llama_options() {
    models=()
    while [[ $# -gt 0 ]]; do
        case $1 in
        --rounds) rounds=$2; shift 2 ;;
        --tokens) tokens=$2; shift 2 ;;
        --threads) threads=$2; shift 2 ;;
        *) models+=("$1"); shift ;;
        esac
    done
}

# awk's median of a space-separated list (for the summaries).
vs_llama_median_awk='
function median(list,    n, a, i, j, tmp) {
    n = split(list, a, " ")
    for (i = 1; i <= n; ++i) for (j = i + 1; j <= n; ++j) if (a[j] + 0 < a[i] + 0) { tmp = a[i]; a[i] = a[j]; a[j] = tmp }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}'

# llama-bench's avg_ts column from its CSV on stdin (the last row).
vs_llama_avg_ts() {
    awk -F, 'NR == 1 {for (i = 1; i <= NF; ++i) if ($i ~ /avg_ts/) c = i; next} c {gsub(/"/, "", $c); print $c}' | tail -1
}

// waferscope: the desktop application.
#include <QApplication>
#include <QMainWindow>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QMainWindow window;
    window.setWindowTitle(QStringLiteral("WaferScope"));
    window.resize(1600, 1000);
    window.show();
    return app.exec();
}

"""CipherBench. `python main.py` opens the window; `python main.py --help` lists the commands."""

import sys


def main() -> int:
    args = sys.argv[1:]
    if args and args[0] != "gui":
        from app.cli.main import main as cli_main

        return cli_main(args)
    from app.gui.launch import launch

    return launch(args[1:])


if __name__ == "__main__":  # required: worker processes are spawned and re-import this module
    import multiprocessing

    multiprocessing.freeze_support()  # a frozen (packaged) app starts its workers through here
    sys.exit(main())

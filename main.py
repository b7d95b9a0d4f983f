"""CipherBench. `python main.py` opens the window; `python main.py --help` lists the commands."""

import sys

from app.__main__ import guard_the_first_second, main

if __name__ == "__main__":  # required: worker processes are spawned and re-import this module
    guard_the_first_second()  # before importing multiprocessing: a Ctrl-C meanwhile is one line
    import multiprocessing

    multiprocessing.freeze_support()  # a frozen (packaged) app starts its workers through here
    sys.exit(main())

"""The ``benchledger`` command of the Python package: the whole command line, run by the
compiled module in this process, with its exit status."""

import signal
import sys


def main() -> None:
    """Runs ``benchledger`` with this process's arguments and exits with its status."""
    from benchledger import _native

    # As the native binary does: Ctrl-C ends the command at once (Python's own handler would
    # wait for the command to return), and a closed pipe is an error the command sees.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.exit(_native.main(["benchledger", *sys.argv[1:]]))


if __name__ == "__main__":
    main()

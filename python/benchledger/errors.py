"""The exceptions of ``benchledger``: one class for each exit status of the command line,
carrying its message word for word."""

from typing import Any, Optional


class Error(Exception):
    """Anything benchledger refused or could not do. ``str(e)`` is the command line's message;
    ``exit_code`` the status the command line exits with; ``output`` what the command printed
    before it failed, and ``document`` that output read as JSON when it is a document (the
    verdicts of a ``verify`` or ``claims_check`` that failed)."""

    exit_code: int
    output: str
    document: Optional[Any]

    def __init__(self, message: str, exit_code: int = 2, output: str = "") -> None:
        super().__init__(message)
        self.exit_code = exit_code
        self.output = output
        self.document = None
        if output.lstrip().startswith("{"):
            import json

            try:
                self.document = json.loads(output)
            except ValueError:
                self.document = None


class BadInput(Error):
    """Bad input or usage (the command line's exit status 2): a file, line and field that is
    wrong and what was expected, a wave or seat that is not there. The ledger is unchanged."""


class CheckFailed(Error):
    """A check ran and did not pass (exit status 1): a publication that does not reproduce,
    a claim that differs, a ledger that does not hold what it should. ``document`` holds the
    verdicts."""


class Unavailable(Error):
    """The work could not complete through no fault of its input (exit status 3): the ledger
    busy past the wait, read-only, the disk full or failing, the server gone. Nothing was
    written; try again."""


__all__ = ["Error", "BadInput", "CheckFailed", "Unavailable"]

"""Errors a user can act on: each names what went wrong, where, and what to do."""


class WorkbenchError(Exception):
    """A problem with the user's input or toolchain; the CLI prints it and exits 2."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message if not self.hint else f"{self.message}\n  what to do: {self.hint}"


class ToolError(WorkbenchError):
    """An external tool failed; carries the tool's own stderr."""

    def __init__(self, tool: str, message: str, stderr: str = "", hint: str | None = None):
        text = f"{tool}: {message}"
        if stderr.strip():
            text += "\n" + "\n".join("  | " + line for line in stderr.strip().splitlines())
        super().__init__(text, hint)
        self.tool = tool
        self.stderr = stderr


class ToolTimeout(ToolError):
    """An external tool ran past its timeout and was killed; carries what it had printed."""

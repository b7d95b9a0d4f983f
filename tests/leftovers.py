"""What CipherBench left in a temporary folder (the fault tests expect nothing)."""

from pathlib import Path


def leftovers(folder: Path) -> list[str]:
    """Every CipherBench file or folder under ``folder`` and its scratch root's contents."""
    found = []
    for entry in folder.iterdir():
        if entry.name.startswith("cipherbench-"):
            found.append(entry.name)
            if entry.is_dir():
                found.extend(f"{entry.name}/{p.name}" for p in entry.iterdir())
    return found

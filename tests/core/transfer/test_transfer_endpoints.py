"""What each end tells its supervisor when its own input fails it, and how the supervisor ranks
the two ends' reports: the cause first, its consequences after."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from app.core.transfer.endpoints import Baseline, _failure, _send_one
from app.core.transfer.framing import TRUNCATED, InputError, TransferError
from app.core.transfer.runner import _reason


def test_an_input_gone_before_a_run_is_said_so_not_called_a_network_error(tmp_path: Path) -> None:
    # os.stat's FileNotFoundError used to reach the supervisor as "network error: No such file".
    gone = tmp_path / "gone.bin"
    with pytest.raises(InputError) as failed:
        _send_one(
            1, str(gone), "aes-256-gcm", bytes(32), 65536, 1.0, warmed=set(), baseline=Baseline()
        )
    kind, message = _failure(failed.value)
    assert kind == "input" and message.startswith(f"cannot read {gone}: ")


def test_other_transfer_errors_keep_their_kind() -> None:
    assert _failure(TransferError("the peer closed the connection"))[0] == "error"
    assert _failure(InputError("the input file shrank during the transfer"))[0] == "input"


def _ends() -> list:
    return [SimpleNamespace(role="receiver"), SimpleNamespace(role="sender")]


def test_a_shrunk_input_is_the_cause_of_the_truncation_the_receiver_reports() -> None:
    # The sender stops when its input shrinks; the receiver then sees a stream cut before its
    # last chunk, an authentication failure, which used to be reported instead of the cause.
    replies = {
        "receiver": ("failed", "auth", TRUNCATED),
        "sender": ("failed", "input", "the input file shrank during the transfer"),
    }
    assert _reason(_ends(), replies) == (  # type: ignore[arg-type]
        "the input file shrank during the transfer (reported by the sender)"
    )


def test_a_cut_by_a_third_party_is_still_the_receivers_authentication_failure() -> None:
    replies = {
        "receiver": ("failed", "auth", TRUNCATED),
        "sender": ("failed", "error", "the receiver closed the connection before confirming"),
    }
    assert _reason(_ends(), replies) == f"{TRUNCATED} (reported by the receiver)"  # type: ignore[arg-type]

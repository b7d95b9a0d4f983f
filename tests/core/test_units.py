import pytest

from app.core.errors import UserError
from app.core.units import format_bytes, format_seconds, parse_size, size_label


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10MB", 10**7),
        ("10MiB", 10 * 2**20),
        ("10 mb", 10**7),
        ("1.5KiB", 1536),
        ("4096", 4096),
        ("2GiB", 2 * 2**30),
        ("1GB", 10**9),
        ("7B", 7),
    ],
)
def test_parse_size(text, expected):
    assert parse_size(text) == expected


@pytest.mark.parametrize("text", ["10XB", "", "MB", "-5MB", "ten", "1.5B"])
def test_parse_size_rejects(text):
    with pytest.raises(UserError):
        parse_size(text)


def test_format_bytes_labels_units():
    assert format_bytes(1536) == "1.50 KiB"
    assert format_bytes(10**7, binary=False) == "10.00 MB"
    assert format_bytes(12) == "12 B"


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("1MiB", "1 MiB"),
        ("1mib", "1 MiB"),
        ("10 MB", "10 MB"),
        ("2.5kb", "2.5 KB"),
        ("4096", "4096 B"),
    ],
)
def test_size_label_keeps_the_unit_typed(typed, shown):
    assert size_label(typed) == shown


def test_size_label_refuses_what_parse_size_refuses():
    with pytest.raises(UserError):
        size_label("10XB")


@pytest.mark.parametrize(
    ("seconds", "digits", "shown"),
    [
        (2.5, 3, "2.500 s"),
        (0.0123, 3, "12.300 ms"),
        (4.5e-6, 3, "4.50 µs"),
        (2.5, 2, "2.500 s"),
        (0.0123, 2, "12.30 ms"),
        (4.5e-6, 2, "4.5 µs"),
        (-0.0123, 2, "-12.30 ms"),
    ],
)
def test_format_seconds_digits_and_sign(seconds, digits, shown):
    assert format_seconds(seconds, digits) == shown


def test_a_files_size_in_the_window_is_decimal_as_the_throughput_beside_it() -> None:
    from app.core.units import file_size

    assert file_size(14_694) == "14.69 KB" and file_size(89_869_298) == "89.87 MB"
    assert file_size(999) == "999 B"


def test_generated_data_is_named_by_the_largest_whole_unit() -> None:
    """The profile window said "random 100.00 KB" where bench said "random 100 KB"."""
    from app.core.bench.inputs import cleanup_generated, generated_input
    from app.core.units import whole_size

    cases = {100_000: "100 KB", 2**20: "1 MiB", 2**30: "1 GiB", 16_000: "16 KB", 999: "999 B"}
    assert {n: whole_size(n) for n in cases} == cases
    assert whole_size(14_694) == "14.69 KB"  # no whole unit: the window's decimal size
    spec = generated_input(100_000)
    try:
        assert spec.label == "random 100 KB"
    finally:
        cleanup_generated(spec)

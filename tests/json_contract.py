"""What issue 2 promises every result in the JSON export has, written down once for the tests."""

RESULT_KEYS = frozenset(
    {
        "cipher",
        "library",
        "key_bits",
        "mode",
        "data_mode",
        "input_bytes",
        "output_bytes",
        "verified",
        "encrypt",
        "decrypt",
        "peak_rss_bytes",
        "baseline_rss_bytes",
        "python_peak_bytes",
        "cpu_percent",
        "warnings",
    }
)
DIRECTION_KEYS = frozenset({"samples_s", "median_s", "throughput_mb_s"})

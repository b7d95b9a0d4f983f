"""Result exports: JSON (everything), CSV and XLSX, written atomically (``writers.export``)."""

"""Examples of reading result files with pandas (read_results)."""

"""Helpers for benchmarks/lsp_latency.py: a minimal LSP client and the file corpus."""

"""Readers: one subpackage per agent turns its files into the session model."""

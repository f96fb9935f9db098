"""Tests of the compatibility layers."""

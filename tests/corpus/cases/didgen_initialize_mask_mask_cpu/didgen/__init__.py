from .generator import generate

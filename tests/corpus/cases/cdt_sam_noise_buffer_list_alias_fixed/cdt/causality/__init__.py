from . import graph

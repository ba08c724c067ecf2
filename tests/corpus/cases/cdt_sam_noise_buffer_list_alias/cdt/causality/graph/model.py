class GraphModel(object):
    """Base class for all graph causal inference models."""

    def __init__(self):
        """Init."""
        super(GraphModel, self).__init__()

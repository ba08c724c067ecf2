class ModelOutput(object):
    def __getitem__(self, i):
        return [v for v in vars(self).values() if v is not None][i]


class BaseModelOutput(ModelOutput):
    def __init__(self, last_hidden_state=None, hidden_states=None, attentions=None):
        self.last_hidden_state = last_hidden_state
        self.hidden_states = hidden_states
        self.attentions = attentions

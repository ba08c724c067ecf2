class RegisterTables:
    def __init__(self):
        self.model_classes = {}

    def register(self, table, name):
        def decorator(cls):
            getattr(self, table)[name] = cls
            return cls
        return decorator


tables = RegisterTables()

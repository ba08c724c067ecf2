from lm_eval.base import Request


class CopaStandIn:
    """Stand-in for a prompted task: a few (context, continuation) documents."""
    VERSION = 0

    def has_validation_docs(self):
        return True

    def has_test_docs(self):
        return False

    def validation_docs(self):
        return [
            {"premise": "The man broke his toe.", "choice": "He dropped a hammer on his foot."},
            {"premise": "I tipped the bottle.", "choice": "The liquid in the bottle poured out."},
            {"premise": "The sun was rising.", "choice": "The birds started to sing."},
        ]

    def construct_requests(self, doc, ctx):
        return [Request("loglikelihood", (ctx, " " + doc["choice"]))]

    def fewshot_context(self, doc):
        return doc["premise"]


TASK_REGISTRY = {"copa": CopaStandIn}
ALL_TASKS = sorted(list(TASK_REGISTRY))


def get_task_dict(task_names):
    return {name: TASK_REGISTRY[name]() for name in task_names}

import collections
import random

import lm_eval.base
import lm_eval.models
import lm_eval.tasks


def simple_evaluate(
    model,
    model_args=None,
    tasks=[],
    batch_size=None,
    device=None,
    limit=None,
    seed=1234,
    parallelize=False,
):
    """Instantiate and evaluate a model on a list of tasks.

    :param device: str, optional
        PyTorch device (e.g. "cpu" or "cuda:0") for running models
    """
    random.seed(seed)
    assert tasks != [], "No tasks specified"

    if isinstance(model, str):
        if model_args is None:
            model_args = ""
        lm = lm_eval.models.get_model(model).create_from_arg_string(
            model_args,
            {"batch_size": batch_size, "device": device, "parallelize": parallelize},
        )
    else:
        assert isinstance(model, lm_eval.base.LM)
        lm = model

    task_dict = lm_eval.tasks.get_task_dict(tasks)
    results = evaluate(lm=lm, task_dict=task_dict, limit=limit)
    results["config"] = {"model": model, "model_args": model_args, "device": device}
    return results


def evaluate(lm, task_dict, limit=None):
    results = collections.defaultdict(dict)
    requests = collections.defaultdict(list)

    for task_name, task in task_dict.items():
        task_docs = list(task.validation_docs())[:limit]
        for doc in task_docs:
            ctx = task.fewshot_context(doc=doc)
            for req in task.construct_requests(doc, ctx):
                requests[req.request_type].append(req)

    for reqtype, reqs in requests.items():
        print("Running", reqtype, "requests")
        resps = getattr(lm, reqtype)([req.args for req in reqs])
        results[reqtype] = resps
    return {"results": dict(results)}

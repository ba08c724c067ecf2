import numpy as np
from sklearn.metrics import f1_score

from setfit import SetFitModel, SetFitTrainer

categories = ["billing", "clinical", "scheduling"]


def compute_metrics(predictions, labels):
    predictions = predictions.numpy()
    labels = np.array(labels)
    return {"f1_micro": f1_score(labels, predictions, average="micro")}


def main():
    model = SetFitModel.from_pretrained(
        "sentence-transformers/paraphrase-mpnet-base-v2",
        multi_target_strategy="one-vs-rest",
        use_differentiable_head=True,
        head_params={"out_features": len(categories)},
    )
    rng = np.random.default_rng(0)
    texts = [f"note {i} about payment and visit" for i in range(12)]
    labels = rng.integers(0, 2, (12, len(categories))).tolist()
    eval_dataset = {"text": texts, "label": labels}

    trainer = SetFitTrainer(model=model, train_dataset=eval_dataset, eval_dataset=eval_dataset, metric=compute_metrics)
    trainer.train()
    metrics = trainer.evaluate()
    print(metrics)


if __name__ == "__main__":
    main()

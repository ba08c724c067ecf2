"""Computes patient representations with a pretrained FEMR model, as in the
issue: `femr.models.transformer.compute_features(..., device='cuda')`."""
import datasets

import femr.models.transformer


def load_meds_dataset():
    """A few MEDS patients (times in seconds) standing in for the MEDS dataset on disk."""
    patients = []
    for pid in range(4):
        events = []
        for j in range(5):
            events.append({"time": 1000 * j, "measurements": [{"code": "SNOMED/%d" % ((pid + j) % 32)}]})
        patients.append({"patient_id": 100 + pid, "events": events})
    return datasets.Dataset.from_list(patients)


if __name__ == "__main__":
    dataset = load_meds_dataset()
    labels = [{"patient_id": 100 + pid, "prediction_time": 2500, "boolean_value": pid % 2 == 0} for pid in range(4)]

    features = femr.models.transformer.compute_features(
        dataset=dataset,
        model_path="motor_model",
        labels=labels,
        num_proc=4,
        tokens_per_batch=1024,
        device="cuda",
        ontology=None,
    )
    print({k: v.shape for k, v in features.items()})

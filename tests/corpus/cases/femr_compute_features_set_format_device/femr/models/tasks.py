from __future__ import annotations

import collections
from typing import Any, List, Mapping, Sequence

import torch


class FEMRTaskConfig:
    def __init__(self, task_type: str = "", task_kwargs=None):
        self.task_type = task_type
        self.task_kwargs = task_kwargs or {}


class Task:
    def get_batch_data(self) -> Mapping[str, Any]:
        return {}

    def cleanup(self, batch: Mapping[str, torch.Tensor]) -> Mapping[str, torch.Tensor]:
        return batch


class LabeledPatientTask(Task):
    def __init__(self, labels: Sequence[Mapping[str, Any]]):
        super().__init__()

        self.label_map: Mapping[int, Any] = collections.defaultdict(list)
        for label in labels:
            row_without_patient_id = dict(label)
            del row_without_patient_id["patient_id"]
            self.label_map[label["patient_id"]].append(row_without_patient_id)

        for k, v in self.label_map.items():
            v.sort(key=lambda a: a["prediction_time"])

    def get_task_config(self) -> FEMRTaskConfig:
        return FEMRTaskConfig(task_type="labeled_patients")

    def filter_dataset(self, dataset, index):
        indices = [index.get_index(patient_id) for patient_id in self.label_map]
        return dataset.select(indices)

    def start_patient(self, patient) -> None:
        self.current_labels = self.label_map[patient["patient_id"]]
        self.current_label_index = 0

    def needs_exact(self) -> bool:
        return True

    def add_event(self, current_time, next_time) -> int:
        has_label = False
        while self.current_label_index < len(self.current_labels):
            current_label = self.current_labels[self.current_label_index]
            is_valid = current_time <= current_label["prediction_time"]
            next_valid = next_time is not None and next_time <= current_label["prediction_time"]
            if next_valid:
                break
            if is_valid:
                has_label = True
                self.current_label_index += 1
            else:
                break
        return 1 if has_label else 0

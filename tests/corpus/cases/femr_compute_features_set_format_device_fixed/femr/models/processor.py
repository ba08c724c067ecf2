from __future__ import annotations

import collections.abc
from typing import Any, Dict, List, Mapping, Optional, Tuple

import datasets
import numpy as np
import torch


class BatchCreator:
    """The class responsible for actually generating batches."""

    def __init__(self, tokenizer, task=None):
        self.tokenizer = tokenizer
        self.task = task

    def start_batch(self):
        self.patient_ids = []
        self.offsets = []
        self.patient_lengths = []
        self.tokens = []
        self.valid_tokens = []
        self.ages = []
        self.normalized_ages = []
        self.timestamps = []
        self.label_indices = []

    def add_patient(self, patient, offset: int = 0, max_length: Optional[int] = None):
        self.patient_ids.append(patient["patient_id"])
        self.offsets.append(offset)
        if self.task is not None:
            self.task.start_patient(patient)

        birth = patient["events"][0]["time"]
        events = patient["events"]
        length = 0
        for i, event in enumerate(events):
            next_time = events[i + 1]["time"] if i + 1 < len(events) else None
            for measurement in event["measurements"]:
                codes = self.tokenizer.get_feature_codes(measurement)
                for code in codes:
                    self.tokens.append(code)
                    self.valid_tokens.append(True)
                    self.ages.append(event["time"] - birth)
                    self.normalized_ages.append((event["time"] - birth) / 365.0)
                    self.timestamps.append(event["time"])
                    length += 1
            if self.task is not None and self.task.add_event(event["time"], next_time):
                self.label_indices.append(len(self.tokens) - 1)
        self.patient_lengths.append(length)

    def get_batch_data(self):
        transformer = {
            # Whether or not the token is valid at this index
            "valid_tokens": np.array(self.valid_tokens),
            # The age of the patient in days at this index
            "ages": np.array(self.ages, dtype=np.float32),
            # The normalized ages at this index
            "normalized_ages": np.array(self.normalized_ages, dtype=np.float16),
            # The timestamp (in seconds) at this index
            "timestamps": np.array(self.timestamps, dtype=np.int64),
            # The length of the patient
            "patient_lengths": np.array(self.patient_lengths, dtype=np.int32),
            # The indices of the labels
            "label_indices": np.array(self.label_indices, dtype=np.int32),
        }

        if not self.tokenizer.is_hierarchical:
            # For a single tokenizer, these are simple the token indices
            transformer["tokens"] = np.array(self.tokens, dtype=np.int32)

        # Some general metadata
        final = {
            "num_patients": len(self.patient_lengths),
            "num_indices": len(self.label_indices),
            "patient_ids": np.array(self.patient_ids, dtype=np.int64),
            "offsets": np.array(self.offsets, dtype=np.int32),
            "transformer": transformer,
        }

        # Add the task data
        if self.task is not None and transformer["label_indices"].shape[0] > 0:
            final["task"] = self.task.get_batch_data()
            final["needs_exact"] = self.task.needs_exact()
        return final

    def cleanup_batch(self, batch: Dict[str, Any]) -> Dict[str, Any]:
        """Clean a batch, applying final processing.

        This is necessary as some tasks use sparse matrices that need to be postprocessed."""

        batch["transformer"]["patient_lengths"] = np.array(batch["transformer"]["patient_lengths"])
        assert isinstance(batch["transformer"]["patient_lengths"], np.ndarray)

        if self.task is not None and "task" in batch:
            batch["task"] = self.task.cleanup(batch["task"])

        return batch


def _batch_generator(batch_data: List[List[int]], *, creator: BatchCreator, dataset):
    for patient_indices in batch_data:
        creator.start_batch()
        for patient_index in patient_indices:
            creator.add_patient(dataset[patient_index])

        result = creator.get_batch_data()
        assert "task" in result, f"No task present in {patient_indices}"

        yield result


def _add_dimension(data: Any) -> Any:
    if isinstance(data, collections.abc.Mapping):
        return {k: _add_dimension(v) for k, v in data.items()}
    elif isinstance(data, torch.Tensor):
        return data.unsqueeze(dim=0)
    elif isinstance(data, np.ndarray):
        return np.expand_dims(data, axis=0)
    elif isinstance(data, (int, float, np.number, np.bool_)):
        return data
    else:
        raise RuntimeError("Could not convert item of type " + str(type(data)))


class FEMRBatchProcessor:
    """The FEMR Batch processor creates batches for processing by a transformer."""

    def __init__(self, tokenizer, task=None):
        self.creator = BatchCreator(tokenizer, task)

    def collate(self, batches: List[Mapping[str, Any]]) -> Mapping[str, Any]:
        """A collate function that prepares batches for being fed into a dataloader."""
        assert len(batches) == 1, "Can only have one batch when collating"
        return {"batch": _add_dimension(self.creator.cleanup_batch(batches[0]))}

    def convert_dataset(self, dataset, tokens_per_batch: int, min_patients_per_batch: int = 4, num_proc: int = 1):
        """Convert an entire dataset to batches.

        The token-count bin packing is reduced to grouping patients by min_patients_per_batch.

        Returns:
            A huggingface dataset object containing batches
        """
        indices = list(range(len(dataset)))
        batch_data = [indices[i : i + min_patients_per_batch] for i in range(0, len(indices), min_patients_per_batch)]
        return datasets.Dataset.from_generator(
            _batch_generator,
            gen_kwargs=dict(batch_data=batch_data, creator=self.creator, dataset=dataset),
        )

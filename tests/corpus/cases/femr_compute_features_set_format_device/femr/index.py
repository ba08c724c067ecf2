class PatientIndex:
    """Maps a patient id to its row in a MEDS dataset."""

    def __init__(self, dataset, num_proc: int = 1):
        self.index = {patient["patient_id"]: i for i, patient in enumerate(dataset)}

    def get_index(self, patient_id: int) -> int:
        return self.index[patient_id]

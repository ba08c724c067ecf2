import logging
from typing import List, TypeVar

import torch  # type: ignore
from transformers import (  # type: ignore
    AutoModelForSequenceClassification,
    AutoTokenizer,
)

from mosec import Server, Worker

T = TypeVar("T")

logger = logging.getLogger()
logger.setLevel(logging.DEBUG)
handler = logging.StreamHandler()
handler.setFormatter(logging.Formatter("%(asctime)s - %(process)d - %(levelname)s - %(message)s"))
logger.addHandler(handler)

INFERENCE_BATCH_SIZE = 32
MODEL_NAME = "distilbert-base-uncased-finetuned-sst-2-english"


class Preprocess(Worker):
    def __init__(self):
        super().__init__()
        self.tokenizer = AutoTokenizer.from_pretrained(MODEL_NAME)

    def deserialize(self, data: bytes) -> str:
        # first stage: the request body as text
        return data.decode()

    def forward(self, data: str) -> T:
        return self.tokenizer.encode(data, add_special_tokens=True)


class Inference(Worker):
    def __init__(self):
        super().__init__()
        self.device = (
            torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
        )
        logger.info(f"using computing device: {self.device}")
        self.model = AutoModelForSequenceClassification.from_pretrained(MODEL_NAME)
        self.model.eval()
        self.model.to(self.device)

        # warm-up batch
        self.example = [[101, 2023, 2003, 1037, 8403, 4937, 999, 102] * 5] * INFERENCE_BATCH_SIZE

    def forward(self, data: List[T]) -> List[str]:
        tensors = [torch.tensor(token) for token in data]
        with torch.no_grad():
            result = self.model(
                torch.nn.utils.rnn.pad_sequence(tensors, batch_first=True).to(
                    self.device
                )
            )[0]
        scores = result.softmax(dim=1).cpu().tolist()
        return [f"positive={p}" for (_, p) in scores]

    def serialize(self, data: str) -> bytes:
        # last stage: the reply body
        return data.encode()


if __name__ == "__main__":
    server = Server()
    server.append_worker(Preprocess)
    server.append_worker(Inference, max_batch_size=INFERENCE_BATCH_SIZE)
    server.run()

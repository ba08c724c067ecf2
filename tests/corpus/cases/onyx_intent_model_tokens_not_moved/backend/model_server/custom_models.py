import torch.nn.functional as F
from fastapi import APIRouter
from huggingface_hub import snapshot_download  # type: ignore
from transformers import AutoTokenizer  # type: ignore
from transformers import BatchEncoding

from model_server.danswer_torch_model import HybridClassifier

INTENT_MODEL_VERSION = "danswer/hybrid-intent-token-classifier"
INTENT_MODEL_TAG = "v1.0.3"
MODEL_WARM_UP_STRING = "hi " * 512

router = APIRouter(prefix="/custom")

_INTENT_TOKENIZER: AutoTokenizer | None = None
_INTENT_MODEL: HybridClassifier | None = None


def get_intent_model_tokenizer() -> AutoTokenizer:
    global _INTENT_TOKENIZER
    if _INTENT_TOKENIZER is None:
        _INTENT_TOKENIZER = AutoTokenizer.from_pretrained("distilbert-base-uncased")
    return _INTENT_TOKENIZER


def get_local_intent_model(
    model_name_or_path: str = INTENT_MODEL_VERSION,
    tag: str = INTENT_MODEL_TAG,
) -> HybridClassifier:
    global _INTENT_MODEL
    if _INTENT_MODEL is None:
        local_path = snapshot_download(repo_id=model_name_or_path, revision=tag)
        _INTENT_MODEL = HybridClassifier.from_pretrained(local_path)
    return _INTENT_MODEL


def warm_up_intent_model() -> None:
    intent_tokenizer = get_intent_model_tokenizer()
    tokens = intent_tokenizer(
        MODEL_WARM_UP_STRING, return_tensors="pt", truncation=True, padding=True
    )
    intent_model = get_local_intent_model()
    intent_model(query_ids=tokens["input_ids"], query_mask=tokens["attention_mask"])


def run_inference(tokens: BatchEncoding) -> tuple[list[float], list[float]]:
    intent_model = get_local_intent_model()

    outputs = intent_model(
        query_ids=tokens["input_ids"], query_mask=tokens["attention_mask"]
    )

    token_logits = outputs["token_logits"]
    intent_logits = outputs["intent_logits"]
    intent_probabilities = F.softmax(intent_logits, dim=-1).numpy()[0]

    token_probabilities = F.softmax(token_logits, dim=-1).numpy()[0]
    # probabilities of the positive class (index 1) for each token
    token_positive_probs = token_probabilities[:, 1].tolist()

    return intent_probabilities.tolist(), token_positive_probs


def run_analysis(query: str, keyword_percent_threshold: float = 0.1) -> tuple[bool, list[bool]]:
    tokenizer = get_intent_model_tokenizer()
    model_input = tokenizer(query, return_tensors="pt", truncation=False, padding=False)

    if len(model_input.input_ids[0]) > 512:
        return True, []

    intent_probs, token_probs = run_inference(model_input)
    is_keyword_sequence = intent_probs[0] >= keyword_percent_threshold
    keyword_preds = [p >= keyword_percent_threshold for p in token_probs]
    return is_keyword_sequence, keyword_preds


@router.post("/query-analysis")
async def process_analysis_request(query: str) -> dict:
    is_keyword, keyword_preds = run_analysis(query)
    return {"is_keyword": is_keyword, "keyword_preds": keyword_preds}

import torch
from torch import nn
from transformers.models.bert.modeling_bert import BertModel, BertPreTrainedModel


class MultiHeadModel(BertPreTrainedModel):
    """Pre-trained BERT model with one linear head per task."""

    def __init__(self, config, head2size):
        super(MultiHeadModel, self).__init__(config)
        self.bert = BertModel(config)
        self.dropout = nn.Dropout(config.hidden_dropout_prob)
        self.heads = nn.ModuleDict({name: nn.Linear(config.hidden_size, size)
                                    for name, size in head2size.items()})
        self.init_weights()

    def forward(self, input_ids, token_type_ids=None, attention_mask=None, return_pooler_output=False):
        device = "cuda" if torch.cuda.is_available() else "cpu"

        output = self.bert(
            input_ids, token_type_ids=token_type_ids, attention_mask=attention_mask,
            output_attentions=False, output_hidden_states=False, return_dict=True)
        pooled_output = self.dropout(output["pooler_output"]).to(device)

        return_dict = {}
        for head_name, head in self.heads.items():
            return_dict[head_name + "_logits"] = head(pooled_output).float()
        if return_pooler_output:
            return_dict["pooler_output"] = output["pooler_output"]
        return return_dict


class BertInputBuilder(object):
    """Builds BERT inputs (ids and segment ids) for a pair of texts."""

    def __init__(self, tokenizer):
        self.tokenizer = tokenizer

    def build_inputs(self, history, response, max_length):
        ids_a = self.tokenizer.encode(" ".join(history), add_special_tokens=False)
        ids_b = self.tokenizer.encode(response, add_special_tokens=False)
        input_ids = ([self.tokenizer.cls_token_id] + ids_a + [self.tokenizer.sep_token_id]
                     + ids_b + [self.tokenizer.sep_token_id])[:max_length]
        token_type_ids = ([0] * (len(ids_a) + 2) + [1] * (len(ids_b) + 1))[:max_length]
        return {"input_ids": input_ids, "token_type_ids": token_type_ids}

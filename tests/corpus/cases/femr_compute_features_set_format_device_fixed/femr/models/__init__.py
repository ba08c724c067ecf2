import femr.models.tasks
import femr.models.tokenizer
import femr.models.processor
import femr.models.transformer

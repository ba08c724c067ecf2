from pytorch_forecasting.models.base_model import BaseModel

__all__ = ["BaseModel"]

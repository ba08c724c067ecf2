from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager

import torch
from fastapi import FastAPI

from model_server.custom_models import router as custom_models_router
from model_server.custom_models import warm_up_intent_model


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncGenerator:
    if torch.cuda.is_available():
        print("GPU is available")
    warm_up_intent_model()
    yield


def get_model_app() -> FastAPI:
    application = FastAPI(title="Danswer Model Server", lifespan=lifespan)
    application.include_router(custom_models_router)
    return application


app = get_model_app()

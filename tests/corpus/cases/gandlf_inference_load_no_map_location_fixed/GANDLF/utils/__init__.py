from GANDLF.utils.tensor import send_model_to_device

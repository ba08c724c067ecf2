import torch

from model_builder import build_sam3_image_model


class Sam3Processor:
    def __init__(self, model, resolution=1008, device="cuda"):
        self.model = model
        self.resolution = resolution
        self.device = device

    @torch.inference_mode()
    def set_image(self, image):
        image = image.to(self.device).unsqueeze(0)
        image = torch.nn.functional.interpolate(image, size=(self.resolution, self.resolution), mode="bilinear")
        return self.model(image)


if __name__ == "__main__":
    # CPU inference, on a machine that also has a GPU
    device = "cpu"
    model = build_sam3_image_model(device=device)
    processor = Sam3Processor(model, device=device)
    bias = processor.set_image(torch.rand(3, 720, 1280))
    print(bias.shape)

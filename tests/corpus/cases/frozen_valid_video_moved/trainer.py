import torch

from base_trainer import BaseTrainer
from model import sim_matrix


class Trainer(BaseTrainer):
    def __init__(self, model, loss, optimizer, config, data_loader, valid_data_loader=None, tokenizer=None):
        super().__init__(model, loss, optimizer, config)
        self.data_loader = data_loader
        self.valid_data_loader = valid_data_loader
        self.tokenizer = tokenizer

    def _train_epoch(self, epoch):
        self.model.train()
        total_loss = 0
        for data in self.data_loader:
            data["video"] = data["video"].to(self.device)
            data["text"] = self.tokenizer(data["text"], return_tensors="pt", padding=True, truncation=True)
            data["text"] = {key: val.cuda() for key, val in data["text"].items()}
            self.optimizer.zero_grad()
            text_embeds, video_embeds = self.model(data)
            loss = self.loss(sim_matrix(text_embeds, video_embeds))
            loss.backward()
            self.optimizer.step()
            total_loss += loss.detach().item()
        log = {"loss": total_loss / len(self.data_loader)}
        if self.valid_data_loader is not None:
            log.update(self._valid_epoch(epoch))
        return log

    def _valid_epoch(self, epoch):
        self.model.eval()
        total_val_loss = 0
        text_embed_arr, vid_embed_arr = [], []
        with torch.no_grad():
            for data in self.valid_data_loader:
                data["video"] = data["video"].cuda()
                data["text"] = self.tokenizer(data["text"], return_tensors="pt", padding=True, truncation=True)
                data["text"] = {key: val.cuda() for key, val in data["text"].items()}
                text_embed, vid_embed = self.model(data, return_embeds=True)
                text_embed_arr.append(text_embed.cpu())
                vid_embed_arr.append(vid_embed.cpu())
                total_val_loss += self.loss(sim_matrix(text_embed, vid_embed)).item()
        sims = sim_matrix(torch.cat(text_embed_arr), torch.cat(vid_embed_arr)).numpy()
        return {"val_loss": total_val_loss / len(self.valid_data_loader), "val_sims": sims}

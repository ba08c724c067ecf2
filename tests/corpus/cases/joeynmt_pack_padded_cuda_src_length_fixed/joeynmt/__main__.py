from joeynmt.training import train

# the configuration the YAML file (configs/*.yaml) gives
CONFIG = {
    "training": {"use_cuda": True, "epochs": 1, "normalization": "batch", "learning_rate": 3.0e-4},
    "model": {
        "encoder": {"rnn_type": "gru", "hidden_size": 8, "num_layers": 1, "bidirectional": True,
                    "embeddings": {"embedding_dim": 4}},
        "decoder": {"hidden_size": 8, "embeddings": {"embedding_dim": 4}},
    },
}

if __name__ == "__main__":
    train(CONFIG)

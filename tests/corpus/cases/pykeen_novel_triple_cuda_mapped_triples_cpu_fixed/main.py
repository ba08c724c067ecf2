import numpy as np
import torch

from transe import TransE
from triples import TriplesFactory

triples = np.array([
    ["brussels", "locatedIn", "belgium"],
    ["belgium", "partOf", "eu"],
    ["paris", "locatedIn", "france"],
    ["france", "partOf", "eu"],
    ["berlin", "locatedIn", "germany"],
])
tf = TriplesFactory(triples=triples)

model = TransE(triples_factory=tf, embedding_dim=16, preferred_device="gpu")
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(5):
    batch = tf.mapped_triples.to(model.device)
    scores = model.score_t(batch[:, :2])
    loss = -scores.gather(1, batch[:, 2:]).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

for row in model.predict_tails("brussels", "locatedIn"):
    print(row)

"""A cell that never ends: Cancel must stop it at once."""
# %%
import time

# %%
n = 0
while True:
    n += 1

def window_partition(x, window_size_h, window_size_w):
    """(B, C, H, W) -> (window_size_h * window_size_w, num_windows * B, C)"""
    B, C, H, W = x.shape
    x = x.permute(0, 2, 3, 1)
    x = x.reshape(B, H // window_size_h, window_size_h, W // window_size_w, window_size_w, C)
    windows = x.permute(0, 1, 3, 2, 4, 5).reshape(-1, window_size_h, window_size_w, C)
    return windows.reshape(-1, window_size_h * window_size_w, C).permute(1, 0, 2)

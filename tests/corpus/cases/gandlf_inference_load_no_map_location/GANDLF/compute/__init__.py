from GANDLF.compute.inference_loop import inference_loop

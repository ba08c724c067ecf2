"""False findings of the s20 fresh precision review, review20b's domain (vision, detection, 3-D,
generative, graph, medical, self-supervised, robotics; benchmarks/review/false_finding_causes.md, causes
K1...), each as a regression snippet with a true twin.  Lines count from the snippet; warnings count
(assert_findings keeps information and above)."""
from .snippets import assert_findings

H = "import numpy as np\nimport torch\nimport torch.nn as nn\n"

# K1: a tracker loads a detector of a class nobody here knows (`import zoo` of a module the project does not
# hold, or `torch.load` of a whole model), moves it with `.cuda()` and unpacks its output; the detector's
# forward may hand back NumPy arrays it made after NMS, which `np.where` takes as they are.
OPAQUE_DETECTOR = """\
    import zoo


    def track(frames):
        net = {made}
        net = net.cuda()
        for img in frames:
            scores, boxes, feats = net(torch.from_numpy(img).cuda())
            keep = {use}
            print(keep)
"""


def test_k1_a_numpy_function_of_a_part_of_an_opaque_output_is_no_proof():
    assert_findings(H, OPAQUE_DETECTOR.format(made="zoo.resnet50(num_classes=1)", use="np.where(scores > 0.1)"), set())


def test_k1_a_whole_model_loaded_with_torch_load_is_as_opaque():
    assert_findings(H, OPAQUE_DETECTOR.format(made='torch.load("net.pt")', use="np.array(scores)"), set())


def test_k1_twin_numpy_method_proves_a_tensor():
    assert_findings(H, OPAQUE_DETECTOR.format(made="zoo.resnet50(num_classes=1)", use="scores.numpy()"), {(9, "TP104")})


def test_k1_twin_the_whole_output_stays_a_tensor():
    body = OPAQUE_DETECTOR.format(made="zoo.resnet50(num_classes=1)", use="np.where(scores > 0.1)") \
        .replace("scores, boxes, feats = net(", "scores = net(")
    assert_findings(H, body, {(9, "TP104")})


def test_k1_twin_a_torch_layer_output_part_is_a_tensor():
    body = """\
    def run(x):
        gru = nn.GRU(4, 8).cuda()
        out, h = gru(x.cuda())
        return np.where(h > 0)
"""
    assert_findings(H, body, {(4, "TP104")})


# K2: a module class of the project with no parameters the engine sees (its model comes from a loader it
# cannot read) and no device of its own defines `__call__`, which returns `imgs.cpu().numpy()`: the call
# gives what that method returns, not a tensor where its input is.
SAMPLER = """\
    from somewhere import load_model


    class Sampler(nn.Module):
        def __init__(self, device):
            super().__init__()
            self.device = device
            self.model = load_model(device=device)

        @torch.no_grad()
        def {entry}(self, x, post_process=True):
            y = self.model.decode(x * 2)
            {ret}
            return y


    if __name__ == "__main__":
        device = torch.device("cuda")
        sampler = Sampler(device)
        out = sampler(torch.randn(2, 4, device=device))
        print(np.array(out[0]))
"""


def test_k2_a_paramless_module_s_own_call_returning_numpy_is_followed():
    assert_findings(H, SAMPLER.format(entry="__call__", ret="y = y.cpu().numpy() if post_process else y"), set())


def test_k2_so_is_its_forward():
    assert_findings(H, SAMPLER.format(entry="forward", ret="y = y.cpu().numpy()"), set())


def test_k2_twin_a_forward_returning_its_input_s_device_is_reported():
    body = SAMPLER.format(entry="forward", ret="y = x + 1").replace("self.model = load_model(device=device)",
                                                                    "self.scale = 2.0")
    assert_findings(H, body, {(21, "TP104")})


# K3/K4: a CUDA-only script prints whether CUDA is there and tests a flag it sets to a literal
# (`use_gpu = True; if use_gpu: net = net.cuda()`); neither is a CPU path, so the load of the trained model
# runs only where a GPU is (its input goes through `.cuda()` unconditionally).
CUDA_SCRIPT = """\
    {banner}


    def run(model_dir, frames):
        net = torch.load(model_dir + "/model_final.pt")
        {flag}
        if use_gpu:
            net = net.cuda()
        for img in frames:
            net(torch.from_numpy(img).cuda())
"""


def test_k3_k4_a_printed_availability_and_a_literal_flag_are_no_cpu_path():
    body = CUDA_SCRIPT.format(banner='print("CUDA available: {}".format(torch.cuda.is_available()))',
                              flag="use_gpu = True")
    assert_findings(H, body, set())


def test_k3_a_printed_availability_alone_is_no_cpu_path():
    body = CUDA_SCRIPT.format(banner='print("CUDA available: {}".format(torch.cuda.is_available()))', flag="pass") \
        .replace("if use_gpu:\n            net = net.cuda()", "net = net.cuda()")
    assert_findings(H, body, set())


def test_k4_a_literal_flag_alone_is_no_choice():
    assert_findings(H, CUDA_SCRIPT.format(banner="", flag="use_gpu = True"), set())


def test_k3_twin_an_availability_that_decides_is_a_cpu_path():
    body = CUDA_SCRIPT.format(banner="use_gpu = torch.cuda.is_available()", flag="pass")
    assert_findings(H, body, {(5, "TP204")})


def test_k4_twin_a_flag_the_caller_passes_is_a_choice():
    body = CUDA_SCRIPT.format(banner="", flag="pass").replace("def run(model_dir, frames):",
                                                             "def run(model_dir, frames, use_gpu=True):")
    assert_findings(H, body, {(5, "TP204")})


def test_k4_twin_a_flag_also_bound_to_a_run_time_value_is_a_choice():
    body = CUDA_SCRIPT.format(banner='print("CUDA available: {}".format(torch.cuda.is_available()))',
                              flag="use_gpu = True\n        use_gpu = use_gpu and len(frames) > 0")
    assert_findings(H, body, {(5, "TP204")})


# K5: the state of torch2trt's `TRTModule` is its TensorRT engine serialized as bytes and the binding names,
# no tensors: loading it without `map_location` restores nothing on a device.
TRT = """\
    def build(exp, ckpt, trt_file, device):
        model = exp.get_model().to(device)
        model.load_state_dict(torch.load(ckpt, map_location="cpu"))
        if trt_file is not None:
            from torch2trt import TRTModule

            {name} = {made}
            {name}.load_state_dict(torch.load(trt_file))
            model = {name}
        return model


    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
"""


def test_k5_a_tensorrt_module_state_holds_no_tensors():
    assert_findings(H, TRT.format(name="model_trt", made="TRTModule()"), set())


def test_k5_twin_another_module_s_state_is_reported():
    assert_findings(H, TRT.format(name="model_trt", made="exp.get_model()"), {(8, "TP204")})


# K12/K16: a multi-GPU script picks `cuda:{local_rank}` (an f-string whose text names CUDA) and pins its loader's
# memory when CUDA is there (`pin_memory=torch.cuda.is_available()`): neither gives it a CPU path, so the
# load of the searched architecture runs only where a GPU is.
DDP_SCRIPT = """\
    from torch.utils.data import DataLoader


    def main(args, dataset):
        device = torch.device({device})
        torch.cuda.set_device(device)
        loader = DataLoader(dataset, batch_size=1, pin_memory={pin})
        ckpt = torch.load(args.arch_ckpt)
        model = nn.Linear(3, 2)
        model.load_state_dict(ckpt)
        model = model.to(device)
        return loader, model
"""


def test_k12_k16_a_run_time_cuda_index_and_pinned_memory_are_no_cpu_path():
    assert_findings(H, DDP_SCRIPT.format(device='f"cuda:{args.local_rank}"', pin="torch.cuda.is_available()"), set())


def test_k12_pinned_memory_alone_is_no_cpu_path():
    assert_findings(H, DDP_SCRIPT.format(device='"cuda:0"', pin="torch.cuda.is_available()"), set())


def test_k16_a_concatenated_cuda_index_names_cuda():
    assert_findings(H, DDP_SCRIPT.format(device='"cuda:" + str(args.local_rank)', pin="True"), set())


def test_k16_twin_a_device_string_read_from_the_command_line_is_a_cpu_path():
    assert_findings(H, DDP_SCRIPT.format(device="args.device", pin="True"), {(8, "TP204")})


def test_k12_twin_availability_bound_to_a_name_is_a_cpu_path():
    body = DDP_SCRIPT.format(device='"cuda:0"', pin="use_cuda").replace(
        "    def main(args, dataset):\n", "    def main(args, dataset):\n        use_cuda = torch.cuda.is_available()\n")
    assert_findings(H, body, {(9, "TP204")})

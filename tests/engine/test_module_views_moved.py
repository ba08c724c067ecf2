"""A loop over a module's own views moves the module (review18a's U4, torchtitan's SimpleFSDP
`data_parallel`): `mods = list(model.modules())` then `for m in mods: m.cuda()` moves `model`'s
parameters in place, as `for m in model.modules()` does; and `m.register_parameter(name,
nn.Parameter(...))` puts a parameter made elsewhere in place of the old one, so where the module is
afterwards is not known.  Each quiet snippet has a reported twin; PyTorch agrees on every one
(`snippets.case_tests`: the fake GPU raises exactly on the lines reported)."""
from .snippets import case_tests

H = "import torch\nimport torch.nn as nn\n"

MAIN = """\


    def main():
        x = torch.randn(3, 4, device="cuda")
        model = place(nn.Sequential(nn.Linear(4, 4), nn.ReLU()))
        return model(x)


    main()
"""
LISTED = """\
    def place(model):
        mods = VIEW
        for m in mods:
            BODY
        return model
""" + MAIN
REGISTERED = """\
    def place(model):
        for m in model.modules():
            for name, p in list(m.named_parameters(recurse=False)):
                m.REGISTER(name, nn.Parameter(p.cuda()))
        return model
""" + MAIN

CASES = {
    "listed_modules_moved": (LISTED.replace("VIEW", "list(model.modules())").replace("BODY", "m.cuda()"), set()),
    "tuple_of_children_moved": (LISTED.replace("VIEW", "tuple(model.children())").replace("BODY", "m.cuda()"), set()),
    "modules_view_moved": (LISTED.replace("VIEW", "model.modules()").replace("BODY", "m.cuda()"), set()),
    "parameters_registered_anew": (REGISTERED.replace("REGISTER", "register_parameter"), set()),
    # true twins: the loop moves nothing; a buffer registered next to the CPU weights moves nothing either
    "listed_modules_not_moved": (LISTED.replace("VIEW", "list(model.modules())").replace("BODY", "m.train()"),
                                 {(11, "TP102")}),
    "buffers_registered": (REGISTERED.replace("m.REGISTER(name, nn.Parameter(p.cuda()))",
                                              "m.register_buffer(name + '_copy', p.detach().clone())"),
                           {(11, "TP102")}),
}

test_engine, test_pytorch_agrees = case_tests(H, CASES)

# -*- coding: utf-8 -*-
# Signal temporal logic with computation graphs: each formula is a module whose robustness
# trace is differentiable.  Traces are [batch_size, time_dim, x_dim] and already reversed in time.
import torch
import numpy as np

LARGE_NUMBER = 1E4


def tensor_to_str(tensor):
    '''turn a constant into a string for printing'''
    if not isinstance(tensor, torch.Tensor):
        return str(tensor)
    if tensor.requires_grad == False:
        return "input"
    tensor = tensor.detach()
    if tensor.device.type == "cuda":
        tensor = tensor.cpu()
    return str(tensor.numpy())


def convert_to_input_values(inputs):
    x_, y_ = inputs
    if isinstance(x_, torch.Tensor):
        x_ret = x_
    elif isinstance(x_, tuple):
        x_ret = convert_to_input_values(x_)
    else:
        raise ValueError("First argument is an invalid input trace")

    if isinstance(y_, torch.Tensor):
        y_ret = y_
    elif isinstance(y_, tuple):
        y_ret = convert_to_input_values(y_)
    else:
        raise ValueError("Second argument is an invalid input trace")

    return (x_ret, y_ret)


class Maxish(torch.nn.Module):
    def __init__(self, name="Maxish input"):
        super(Maxish, self).__init__()
        self.input_name = name

    def forward(self, x, scale, dim=1, keepdim=True):
        '''softmax over dim if scale > 0, otherwise the true max'''
        if scale > 0:
            return (torch.softmax(x*scale, dim=dim)*x).sum(dim, keepdim=keepdim)
        else:
            return x.max(dim, keepdim=keepdim)[0]


class Minish(torch.nn.Module):
    def __init__(self, name="Minish input"):
        super(Minish, self).__init__()
        self.input_name = name

    def forward(self, x, scale, dim=1, keepdim=True):
        '''softmin over dim if scale > 0, otherwise the true min'''
        if scale > 0:
            return (torch.softmax(-x*scale, dim=dim)*x).sum(dim, keepdim=keepdim)
        else:
            return x.min(dim, keepdim=keepdim)[0]


class STL_Formula(torch.nn.Module):

    def __init__(self):
        super(STL_Formula, self).__init__()

    def robustness_trace(self, trace, pscale=1, scale=-1, **kwargs):
        raise NotImplementedError("robustness_trace not yet implemented")

    def robustness(self, inputs, time=0, pscale=1, scale=-1, **kwargs):
        '''the robustness_trace value at the given time (default: time=0, the trace being reversed)'''
        return self.robustness_trace(inputs, pscale=pscale, scale=scale)[:,-(time+1),:].unsqueeze(1)

    def eval_trace(self, inputs, pscale=1, scale=-1, **kwargs):
        return self.robustness_trace(inputs, pscale=pscale, scale=scale) > 0

    def forward(formula, inputs, pscale=1, scale=-1, **kwargs):
        if isinstance(inputs, torch.Tensor):
            return formula.robustness_trace(inputs, pscale=pscale, scale=scale, **kwargs)
        elif isinstance(inputs, tuple):
            return formula.robustness_trace(convert_to_input_values(inputs), pscale=pscale, scale=scale, **kwargs)
        else:
            raise ValueError("Not a invalid input trace")

    def __and__(phi, psi):
        return And(phi, psi)

    def __or__(phi, psi):
        return Or(phi, psi)

    def __invert__(phi):
        return Negation(phi)


class Identity(STL_Formula):

    def __init__(self, name='x'):
        super(Identity, self).__init__()
        self.name = name

    def robustness_trace(self, trace, pscale=1, **kwargs):
        return trace * pscale

    def __str__(self):
        return "%s" %self.name


class Temporal_Operator(STL_Formula):
    def __init__(self, subformula, interval=None):
        super(Temporal_Operator, self).__init__()
        self.subformula = subformula
        self.interval = interval
        self._interval = [0, np.inf] if self.interval is None else self.interval
        self.rnn_dim = 1 if not self.interval else self.interval[-1]
        self.steps = 1 if not self.interval else self.interval[-1] - self.interval[0] + 1
        self.operation = None

    def _initialize_rnn_cell(self, x):
        raise NotImplementedError("_initialize_rnn_cell is not implemented")

    def _rnn_cell(self, x, h0, scale=-1, **kwargs):
        '''x: [batch_size, 1, x_dim]; h0: [batch_size, rnn_dim, x_dim]'''
        if self.operation is None:
            raise Exception()

        if self.interval is None:
            input_ = torch.cat([h0, x], dim=1)
            output = state = self.operation(input_, scale, dim=1)
        else:
            h0x = torch.cat([h0, x], dim=1)
            input_ = h0x[:,:self.steps,:]
            output = self.operation(input_, scale, dim=1)
            state = h0x[:,1:,:]
        return output, state

    def _run_rnn_cell(self, x, scale):
        outputs = []
        states = []
        h = self._initialize_rnn_cell(x)
        xs = torch.split(x, 1, dim=1)
        time_dim = len(xs)
        for i in range(time_dim):
            o, h = self._rnn_cell(xs[i], h, scale)
            outputs.append(o)
            states.append(h)

        return outputs, states

    def robustness_trace(self, inputs, pscale=1, scale=-1, **kwargs):
        trace = self.subformula(inputs, pscale=pscale, scale=scale)
        outputs, states = self._run_rnn_cell(trace, scale=scale)
        return torch.cat(outputs, dim=1)


class Always(Temporal_Operator):
    def __init__(self, subformula, interval=None):
        super(Always, self).__init__(subformula=subformula, interval=interval)
        self.operation = Minish()
        self.oper = "min"

    def _initialize_rnn_cell(self, x):
        init_val = LARGE_NUMBER
        h0 = torch.ones([x.shape[0], self.rnn_dim, x.shape[2]])*init_val
        return h0.to(x.device)

    def __str__(self):
        return "◻ " + str(self._interval) + "( " + str(self.subformula) + " )"


class Eventually(Temporal_Operator):
    def __init__(self, subformula='Eventually input', interval=None):
        super(Eventually, self).__init__(subformula=subformula, interval=interval)
        self.operation = Maxish()
        self.oper = "max"

    def _initialize_rnn_cell(self, x):
        init_val = -LARGE_NUMBER
        h0 = torch.ones([x.shape[0], self.rnn_dim, x.shape[2]])*init_val
        return h0.to(x.device)

    def __str__(self):
        return "♢ " + str(self._interval) + "( " + str(self.subformula) + " )"


class LessThan(STL_Formula):
    '''x <= c where x is the signal and c the constant'''
    def __init__(self, name='x', val='c'):
        super(LessThan, self).__init__()
        assert isinstance(name, str), "LHS of expression needs to be a string (input name)"
        self.input_name = name
        self.val = val
        self.subformula = None

    def robustness_trace(self, trace, pscale=1, **kwargs):
        if pscale == 1:
            return self.val - trace
        return (self.val - trace)*pscale

    def __str__(self):
        return self.input_name + " <= " + tensor_to_str(self.val)


class GreaterThan(STL_Formula):
    '''x >= c where x is the signal and c the constant'''
    def __init__(self, name='x', val='c'):
        super(GreaterThan, self).__init__()
        assert isinstance(name, str), "LHS of expression needs to be a string (input name)"
        self.input_name = name
        self.val = val
        self.subformula = None

    def robustness_trace(self, trace, pscale=1, **kwargs):
        if pscale == 1:
            return trace - self.val
        return (trace - self.val)*pscale

    def __str__(self):
        return self.input_name + " >= " + tensor_to_str(self.val)


class Negation(STL_Formula):
    def __init__(self, subformula):
        super(Negation, self).__init__()
        self.subformula = subformula

    def robustness_trace(self, inputs, pscale=1, scale=-1, **kwargs):
        return -self.subformula(inputs, pscale=pscale, scale=scale)*pscale

    def __str__(self):
        return "¬(" + str(self.subformula) + ")"


class And(STL_Formula):
    '''inputs: a tuple (x, y), one input per subformula'''
    def __init__(self, subformula1, subformula2):
        super(And, self).__init__()
        self.subformula1 = subformula1
        self.subformula2 = subformula2
        self.operation = Minish()

    def robustness_trace(self, inputs, pscale=1, scale=-1, **kwargs):
        x, y = inputs
        trace1 = self.subformula1(x, pscale=pscale, scale=scale)
        trace2 = self.subformula2(y, pscale=pscale, scale=scale)
        xx = torch.stack([trace1, trace2], dim=-1)
        return self.operation(xx, scale, dim=-1, keepdim=False)

    def __str__(self):
        return "(" + str(self.subformula1) + ") ∧ (" + str(self.subformula2) + ")"


class Or(STL_Formula):
    '''inputs: a tuple (x, y), one input per subformula'''
    def __init__(self, subformula1, subformula2):
        super(Or, self).__init__()
        self.subformula1 = subformula1
        self.subformula2 = subformula2
        self.operation = Maxish()

    def robustness_trace(self, inputs, pscale=1, scale=-1, **kwargs):
        x, y = inputs
        trace1 = self.subformula1(x, pscale=pscale, scale=scale)
        trace2 = self.subformula2(y, pscale=pscale, scale=scale)
        xx = torch.stack([trace1, trace2], dim=-1)
        return self.operation(xx, scale, dim=-1, keepdim=False)

    def __str__(self):
        return "(" + str(self.subformula1) + ") ∨ (" + str(self.subformula2) + ")"


class Until(STL_Formula):
    def __init__(self, subformula1="Until subformula1", subformula2="Until subformula2"):
        '''subformula1 U subformula2'''
        super(Until, self).__init__()
        self.subformula1 = subformula1
        self.subformula2 = subformula2

    def robustness_trace(self, inputs, pscale=1, scale=-1, **kwargs):
        '''trace1 and trace2, the robustness traces of phi and psi, are [batch_size, time_dim, x_dim]'''
        x, y = inputs
        trace1 = self.subformula1(x, pscale=pscale, scale=scale)
        trace2 = self.subformula2(y, pscale=pscale, scale=scale)
        Alw = Always(subformula=Identity(name=str(self.subformula1)))
        minish = Minish()
        maxish = Maxish()
        LHS = trace2.unsqueeze(-1).repeat([1, 1, 1,trace2.shape[1]]).permute(0, 3, 2, 1)  # [batch_size, time_dim, x_dim, time_dim]
        RHS = torch.ones(LHS.shape).to(x.device)*-LARGE_NUMBER  # [batch_size, time_dim, x_dim, time_dim]
        for i in range(trace2.shape[1]):
            RHS[:,i:,:,i] = Alw(trace1[:,i:,:], pscale=pscale, scale=scale)
        # min over (rho(psi), always rho(phi)), then max over the second time dimension
        return maxish(minish(torch.stack([LHS, RHS], dim=-1), scale=scale, dim=-1).squeeze(-1), scale=scale, dim=-1).squeeze(-1)

    def __str__(self):
        return  "(" + str(self.subformula1) + ")" + " U " + "(" + str(self.subformula2) + ")"

from .sls_acc import SlsAcc

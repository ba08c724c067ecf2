from liquidnet.main import LiquidNet

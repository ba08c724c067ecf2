from .tsdataset import TimeSeriesDataset


class NeuralForecast:
    def __init__(self, models, freq):
        self.models = models
        self.freq = freq

    def fit(self, df):
        dataset = TimeSeriesDataset.from_df(df)
        for model in self.models:
            model.fit(dataset=dataset)
        return self

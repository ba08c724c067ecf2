import trainer as trainer_module
import data_loader
import adversarial_perturbation


def main():
    trainer = trainer_module.trainer()
    trainset, testset = data_loader.load_data()
    accuracy = trainer.train(trainset, testset)
    trainset, testset = data_loader.load_data()

    v, fooling_rate = adversarial_perturbation.generate(accuracy, trainset, testset, trainer.net)
    print("FOOLING RATE: ", fooling_rate)


if __name__ == "__main__":
    main()

import numpy as np
from rdkit import Chem
from rdkit.Chem import AllChem, DataStructs
import pickle


def create_rxn_Morgan2FP_concatenate(rsmi, psmi, fpsize=16384, radius=2, useFeatures=False, calculate_rfp=True, useChirality=True):
    """Morgan fingerprints of the reactants and the product: returns [product fp, product fp - reactant fp] (numpy)."""
    rsmi = rsmi.encode('utf-8')
    psmi = psmi.encode('utf-8')
    try:
        mol = Chem.MolFromSmiles(rsmi)
    except Exception as e:
        print(e)
        return
    try:
        fp_bit = AllChem.GetMorganFingerprintAsBitVect(
            mol=mol, radius=radius, nBits=fpsize, useFeatures=useFeatures, useChirality=useChirality)
        fp = np.empty(fpsize, dtype='float32')
        DataStructs.ConvertToNumpyArray(fp_bit, fp)
    except Exception as e:
        print("Cannot build reactant fp due to {}".format(e))
        return
    rfp = fp

    try:
        mol = Chem.MolFromSmiles(psmi)
    except Exception as e:
        return
    try:
        fp_bit = AllChem.GetMorganFingerprintAsBitVect(
            mol=mol, radius=radius, nBits=fpsize, useFeatures=useFeatures, useChirality=useChirality)
        fp = np.empty(fpsize, dtype='float32')
        DataStructs.ConvertToNumpyArray(fp_bit, fp)
    except Exception as e:
        print("Cannot build product fp due to {}".format(e))
        return
    pfp = fp
    rxn_fp = pfp - rfp
    final_fp = np.concatenate((pfp, rxn_fp))
    return final_fp


def get_classes(path):
    """The (name, count) label classes stored in a pickle, most frequent first."""
    f = open(path, 'rb')
    dict_ = pickle.load(f)
    f.close()
    classes = sorted(dict_.items(), key=lambda d: d[1], reverse=True)
    classes = [(x, y) for x, y in classes]
    return classes

"""Datasets shipped inside installed packages, or fetched and cached by scikit-learn's fetchers."""

from __future__ import annotations

import tarfile

import numpy as np

from .canonical import Dataset, DatasetError


def sklearn_breast_cancer(name: str, positive: str = "malignant") -> Dataset:
    """WDBC (Street, Wolberg & Mangasarian 1993) from scikit-learn: 569 x 30, 212 malignant / 357 benign.

    In scikit-learn's loader ``target`` 0 = malignant, 1 = benign; ``positive`` names the class mapped to +1.
    """
    from sklearn.datasets import load_breast_cancer

    b = load_breast_cancer()
    names = list(b.target_names)  # ['malignant', 'benign']
    if positive not in names:
        raise ValueError(f"dataset {name!r}: positive class {positive!r} is not one of {names}")
    y = np.where(b.target == names.index(positive), 1, -1)
    return Dataset(
        name=name,
        X=np.asarray(b.data, dtype=np.float64),
        y=y,
        feature_names=[str(f) for f in b.feature_names],
        sample_ids=[f"wdbc{i}" for i in range(b.data.shape[0])],
        meta={"source": {"kind": "embedded", "loader": "sklearn.datasets.load_breast_cancer",
                         "positive": positive}},
    )


def sklearn_wine(name: str, positive: str | None = None) -> Dataset:
    """Wine (Forina et al.; UCI) from scikit-learn: 178 x 13, three cultivars (59 / 71 / 48), a small multiclass set.

    Without ``positive`` the three classes stay (codes 0, 1, 2 for scikit-learn's ``class_0`` .. ``class_2``,
    ``meta["classes"]``); ``positive`` names the class mapped to +1, the two others -1 (one versus rest).
    """
    from sklearn.datasets import load_wine

    b = load_wine()
    names = [str(c) for c in b.target_names]  # ['class_0', 'class_1', 'class_2']
    if positive is not None and positive not in names:
        raise DatasetError(f"dataset {name!r}: positive class {positive!r} is not one of {names}")
    y = np.asarray(b.target, dtype=np.int64) if positive is None else np.where(b.target == names.index(positive), 1, -1)
    meta = {"source": {"kind": "embedded", "loader": "sklearn.datasets.load_wine", "positive": positive}}
    if positive is None:
        meta["classes"] = names
    return Dataset(
        name=name,
        X=np.asarray(b.data, dtype=np.float64),
        y=y,
        feature_names=[str(f) for f in b.feature_names],
        sample_ids=[f"wine{i}" for i in range(b.data.shape[0])],
        meta=meta,
    )


#: The 20 newsgroups of the 20 Newsgroups collection (Lang 1995), as scikit-learn names them.
NEWSGROUPS = (
    "alt.atheism", "comp.graphics", "comp.os.ms-windows.misc", "comp.sys.ibm.pc.hardware",
    "comp.sys.mac.hardware", "comp.windows.x", "misc.forsale", "rec.autos", "rec.motorcycles",
    "rec.sport.baseball", "rec.sport.hockey", "sci.crypt", "sci.electronics", "sci.med", "sci.space",
    "soc.religion.christian", "talk.politics.guns", "talk.politics.mideast", "talk.politics.misc",
    "talk.religion.misc",
)


def fetch_20newsgroups(**kwargs):
    """scikit-learn's fetcher (a module-level name so tests can replace it without any network)."""
    from sklearn.datasets import fetch_20newsgroups as fetch

    return fetch(**kwargs)


def sklearn_20newsgroups(
    name: str,
    positive: str = "alt.atheism",
    remove: list[str] | tuple[str, ...] = ("headers", "footers", "quotes"),
    n_per_group: int | None = None,
    n_docs: int | None = None,
    random_state: int = 0,
    max_features: int | None = 2000,
    min_df: int = 3,
    data_home: str | None = None,
    download_if_missing: bool = True,
) -> Dataset:
    """20 Newsgroups one-vs-rest (Catala & Martin, section 4.2): ``positive`` -> +1, the 19 others -> -1.

    Documents: scikit-learn's ``fetch_20newsgroups(subset="all")`` (the 18,846-message "bydate"
    version without cross-posted duplicates; downloaded once into ``data_home``, default
    ``~/scikit_learn_data``, and read from that cache afterwards; ``download_if_missing=False`` never
    touches the network). ``remove`` strips headers, signature footers and quoted replies by default,
    as scikit-learn advises: the headers name the newsgroup, which would leak the label (the paper
    does not say; give ``remove: []`` for the raw messages).
    Subsampling, seeded by ``random_state``: ``n_per_group`` documents of each group (600 makes the
    positive fraction exactly 1/20, as in the paper's 1000-per-group collection, so stratified
    training sets of 400 / 1000 hold 20 / 50 positives), then ``n_docs`` documents stratified by group.
    Features (the paper's steps a, c, d): scikit-learn's English stop list removed, words in fewer
    than ``min_df`` documents dropped, the ``max_features`` most frequent remaining words kept (a
    cap of svmfs, to keep X dense), tf-idf (smooth idf, l2-normalised rows) fitted on all documents
    (the paper preprocesses the collection before splitting). Protocol difference: no Porter
    stemming (step b; nltk is not a dependency), so inflected forms are separate features.
    """
    if positive not in NEWSGROUPS:
        raise DatasetError(
            f"dataset {name!r}: positive newsgroup {positive!r} is not one of the 20 newsgroups: {', '.join(NEWSGROUPS)}"
        )
    from sklearn.datasets import get_data_home
    from sklearn.feature_extraction.text import TfidfVectorizer

    remove = tuple(remove)
    try:
        b = fetch_20newsgroups(
            subset="all", remove=remove, shuffle=False, data_home=data_home, download_if_missing=download_if_missing
        )
    except (OSError, ValueError, EOFError, tarfile.TarError) as e:
        raise DatasetError(
            f"dataset {name!r}: scikit-learn's 20 Newsgroups fetcher could not load the corpus "
            f"(network or cache at {get_data_home(data_home)}): {e}"
        ) from None
    groups = np.asarray(b.target)
    target = groups == list(b.target_names).index(positive)
    idx = np.arange(groups.size)
    rng = np.random.default_rng(random_state)
    if n_per_group is not None:
        idx = np.sort(np.concatenate([
            rng.choice(np.flatnonzero(groups == g), size=min(int(n_per_group), int(np.sum(groups == g))), replace=False)
            for g in np.unique(groups)
        ]))
    if n_docs is not None and n_docs < idx.size:
        from sklearn.model_selection import train_test_split

        idx = np.sort(train_test_split(idx, train_size=int(n_docs), stratify=groups[idx], random_state=random_state)[0])
    vec = TfidfVectorizer(stop_words="english", min_df=min_df, max_features=max_features)
    try:
        X = vec.fit_transform([b.data[i] for i in idx]).toarray().astype(np.float64)
    except ValueError as e:  # an empty vocabulary
        raise DatasetError(f"dataset {name!r}: tf-idf of the 20 Newsgroups documents failed: {e}") from None
    return Dataset(
        name=name,
        X=X,
        y=np.where(target[idx], 1, -1),
        feature_names=[str(t) for t in vec.get_feature_names_out()],
        sample_ids=[f"ng{i}" for i in idx],
        meta={
            "source": {"kind": "embedded", "loader": "sklearn.datasets.fetch_20newsgroups", "subset": "all",
                       "positive": positive, "remove": list(remove), "n_per_group": n_per_group,
                       "n_docs": n_docs, "random_state": random_state},
            "preprocessing": [
                f"tf-idf (smooth idf, l2 rows) of {idx.size} documents: English stop words removed, "
                f"min_df={min_df}, max_features={max_features}; no stemming"
            ],
        },
    )


LOADERS = {"sklearn_breast_cancer": sklearn_breast_cancer, "sklearn_20newsgroups": sklearn_20newsgroups,
           "sklearn_wine": sklearn_wine}

"""Given names of many languages, to tell a person the language model misread (Django-free).

The small English pipeline reads a given name written alone ("I spoke to Siobhan",
"Aleksandra checked the log") as an organisation as often as a person. A reading of one
word that is a given name here is taken for the person. The names are the first-name
lists of Faker's person providers (85 locales, about 26,500 names, MIT licensed), read
once per process, less two kinds of noise: the base English list (the 1990 US census's
rarer male names, "Smith" and "Jones" among them), and the surnames of the English-
speaking locales that none of their first-name lists has ("Hughes", "Ward": a firm named
"Pratt, Jones and Hughes" is no one's given name). Everyday words that are also given
names ("Will", "Grace") are listed apart: written alone, they are the word more often
than the person.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil

import faker.providers.lorem.en_US
import faker.providers.person

# Given names that are everyday words too, written alone more often as the word
# ("Will you", "Grace period", "in August").
WORD_GIVEN_NAMES = frozenset(
    "will mark bill grace hope faith rose june april august dean frank page gene dawn ruby "
    "pearl iris lily holly daisy penny rich carol chase drew grant hunter miles norman "
    "warren wade victor sterling earl king prince major summer autumn amber crystal "
    "jasmine violet heather destiny trinity harmony liberty justice precious sunny rocky "
    "sandy misty brook brooke river stone cash price young rusty buck chuck herb clay "
    "cliff glen glenn max eve pat sue kit bob rob ray may joy art don guy jan sol mac "
    "ash sky ace "
    # a month's abbreviation ("FILED\nSep 13, 2019")
    "feb mar apr jun jul aug sep sept oct nov dec".split()
)
_FIRST_NAMES = ("first_names", "first_names_male", "first_names_female", "first_names_nonbinary")


@functools.cache
def given_names() -> frozenset[str]:
    """The given names of the locales' person providers, case folded."""
    names: set[str] = set()
    english_first: set[str] = set()
    english_last: set[str] = set()
    for module in pkgutil.iter_modules(faker.providers.person.__path__):
        if module.name == "en":
            continue
        provider = importlib.import_module(f"{faker.providers.person.__name__}.{module.name}")
        english = module.name.startswith("en_")
        for attribute in (*_FIRST_NAMES, "last_names"):
            # Some providers compute their lists (properties): only the literal ones.
            listed = vars(provider.Provider).get(attribute)
            if not isinstance(listed, dict | tuple | list | frozenset | set):
                continue
            folded = {name.casefold() for name in listed}
            if attribute == "last_names":
                english_last.update(folded if english else ())
            else:
                names.update(folded)
                english_first.update(folded if english else ())
    return frozenset(names - (english_last - english_first))


@functools.cache
def surnames() -> frozenset[str]:
    """The surnames of the English locales' person providers, case folded."""
    names: set[str] = set()
    for module in pkgutil.iter_modules(faker.providers.person.__path__):
        if module.name.startswith("en_"):
            provider = importlib.import_module(f"{faker.providers.person.__name__}.{module.name}")
            listed = vars(provider.Provider).get("last_names")
            if isinstance(listed, dict | tuple | list | frozenset | set):
                names.update(name.casefold() for name in listed)
    return frozenset(names)


@functools.cache
def everyday_words() -> frozenset[str]:
    """Common English words (Faker's English word list, about 970), case folded: a
    given name among them ("gun", "lot", "floor") is the word when case does not tell."""
    return frozenset(word.casefold() for word in faker.providers.lorem.en_US.Provider.word_list)

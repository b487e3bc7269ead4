"""Registry: Go's errors, sorted languages, and safety under concurrent use."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from taskspec import GenerateOptions, Generator, Language, Registry, TaskSpec
from tests.helpers import valid_spec

#: Register's messages, shared with the Go library's tests
#: (go/contract_tables_test.go), so that one file proves both say the same.
TABLE: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parent / "contract" / "registry.json").read_text()
)


@dataclass(frozen=True)
class FakeGenerator:
    lang: Language | str

    @property
    def language(self) -> Language | str:
        return self.lang

    def generate(self, opts: GenerateOptions) -> TaskSpec:
        spec = valid_spec()
        if opts.template_id:
            spec.generated_from.template_id = opts.template_id
        return spec


def test_fake_generator_satisfies_the_protocol() -> None:
    gen: Generator = FakeGenerator(Language.GO)
    assert isinstance(gen, Generator)
    assert gen.generate(GenerateOptions(template_id="t")).generated_from.template_id == "t"


def test_register_and_lookup() -> None:
    reg = Registry()
    gen = FakeGenerator(Language.PYTHON)
    reg.register(gen)
    assert reg.lookup(Language.PYTHON) is gen
    assert reg.lookup("python") is gen
    assert reg.lookup(Language.GO) is None
    assert reg.lookup("cobol") is None


def test_get_returns_the_generator_or_raises_a_lookup_error() -> None:
    reg = Registry()
    gen = FakeGenerator(Language.PYTHON)
    reg.register(gen)
    assert reg.get(Language.PYTHON) is gen
    assert reg.get("python") is gen
    with pytest.raises(LookupError) as info:
        reg.get(Language.GO)
    assert str(info.value) == 'no generator registered for language "go" (registered: python)'
    with pytest.raises(LookupError, match=r'language "cobol" \(registered: python\)$'):
        reg.get("cobol")
    with pytest.raises(LookupError, match=r"\(registered: none\)$"):
        Registry().get(Language.GO)


class _NoGenerate:
    language = Language.GO


class _NoLanguage:
    def generate(self, opts: GenerateOptions) -> TaskSpec:
        return valid_spec()


@pytest.mark.parametrize(
    ("obj", "missing"),
    [
        (_NoGenerate(), "generate method"),
        (_NoLanguage(), "language attribute"),
        (object(), "language attribute and no generate method"),
    ],
)
def test_register_of_a_non_generator_says_what_is_missing(obj: object, missing: str) -> None:
    with pytest.raises(TypeError) as info:
        Registry().register(obj)  # type: ignore[arg-type]
    name = type(obj).__name__
    assert str(info.value) == (
        f"cannot register: {name} object is not a Generator (it has no {missing})"
    )


def test_register_nil() -> None:
    with pytest.raises(ValueError, match=r"^cannot register nil generator$"):
        Registry().register(None)


@pytest.mark.parametrize(("lang", "shown"), [("cobol", '"cobol"'), ("", '""'), ("Go", '"Go"')])
def test_register_invalid_language(lang: str, shown: str) -> None:
    with pytest.raises(ValueError) as info:
        Registry().register(FakeGenerator(lang))
    assert str(info.value) == f"cannot register generator for invalid language {shown}"


def test_register_duplicate() -> None:
    reg = Registry()
    reg.register(FakeGenerator(Language.GO))
    with pytest.raises(ValueError) as info:
        reg.register(FakeGenerator("go"))
    assert str(info.value) == 'generator for language "go" already registered'


def test_languages_are_sorted() -> None:
    reg = Registry()
    for lang in (Language.TYPESCRIPT, Language.GO, Language.PYTHON):
        reg.register(FakeGenerator(lang))
    assert reg.languages() == [Language.GO, Language.PYTHON, Language.TYPESCRIPT]
    assert all(type(x) is Language for x in reg.languages())


def test_concurrent_register_and_lookup() -> None:
    reg = Registry()
    languages = list(Language)
    threads_per_language = 8
    count = threads_per_language * len(languages)
    barrier = threading.Barrier(count)
    wins: list[Language] = []
    errors: list[str] = []
    seen: list[object] = []
    lock = threading.Lock()

    def worker(i: int) -> None:
        lang = languages[i % len(languages)]
        barrier.wait()
        try:
            reg.register(FakeGenerator(lang))
            with lock:
                wins.append(lang)
        except ValueError as err:
            with lock:
                errors.append(str(err))
        for _ in range(200):
            found = reg.lookup(lang)
            with lock:
                seen.append(found)
            reg.languages()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(wins) == sorted(Language)  # exactly one registration per language won
    assert len(errors) == count - len(languages)
    assert all("already registered" in e for e in errors)
    assert all(isinstance(g, FakeGenerator) for g in seen)  # a winner is always visible afterwards
    assert reg.languages() == sorted(Language, key=str)  # by spelling, as Go sorts


def test_register_follows_the_shared_table() -> None:
    reg = Registry()
    for step in TABLE["steps"]:
        gen = FakeGenerator(step["language"]) if step["generator"] else None
        if step["error"]:
            with pytest.raises(ValueError) as info:
                reg.register(gen)
            assert str(info.value) == step["error"], step
        else:
            reg.register(gen)
    assert [lang.value for lang in reg.languages()] == TABLE["languages"]

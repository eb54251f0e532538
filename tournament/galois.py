"""Small finite fields GF(p^k), for the schedule constructions (:mod:`tournament.designs`).

An element is an int 0…q−1: the coefficients of a polynomial over GF(p) written in base
``p`` (``a = Σ a_i p^i`` stands for ``Σ a_i x^i``). The field is built at run time: for a
prime ``q`` the first primitive root generates the multiplicative group; otherwise the first
monic polynomial of degree ``k`` (in the order of its coefficients) under which ``x`` has
order ``q − 1`` is used. Addition is a table lookup, multiplication goes through discrete
logarithms; the schedules need fields of at most a few hundred elements.
"""
from __future__ import annotations

from functools import lru_cache


def prime_power(q: int) -> tuple[int, int] | None:
    """``(p, k)`` with ``q = p^k``, or ``None``."""
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)
    k, r = 0, q
    while r % p == 0:
        r //= p
        k += 1
    return (p, k) if r == 1 else None


class GF:
    """The field with ``q`` elements.

    >>> F = GF(9)
    >>> F.mul(F.primitive, F.inv(F.primitive)), F.add(3, F.neg(3))
    (1, 0)
    """

    def __init__(self, q: int) -> None:
        pk = prime_power(q)
        if pk is None:
            raise ValueError(f"GF(q) needs a prime power, got {q}")
        self.q = q
        self.p, self.k = pk
        p, k = pk
        self.add_table = [[self._add_digits(a, b) for b in range(q)] for a in range(q)]
        self.exp = self._powers()
        self.log = {e: i for i, e in enumerate(self.exp)}
        self.primitive = self.exp[1] if q > 2 else 1

    def _add_digits(self, a: int, b: int) -> int:
        p, out, place = self.p, 0, 1
        for _ in range(self.k):
            out += ((a % p + b % p) % p) * place
            a //= p
            b //= p
            place *= p
        return out

    def _powers(self) -> list[int]:
        """Successive powers of a generator of the multiplicative group."""
        p, k, q = self.p, self.k, self.q
        if k == 1:
            for g in range(1, q):
                seen, x = [], 1
                for _ in range(q - 1):
                    seen.append(x)
                    x = x * g % q
                if len(set(seen)) == q - 1:
                    return seen
        top = p ** (k - 1)
        for tail in range(p ** k):  # x^k = -(c_{k-1} x^{k-1} + … + c_0): coefficients of ``tail``
            coeffs = [(tail // p ** i) % p for i in range(k)]
            if coeffs[0] == 0:
                continue
            seen, x = [], 1
            for _ in range(q - 1):
                seen.append(x)
                lead = x // top
                x = (x % top) * p  # times x, without the x^k term
                for i in range(k):  # add lead · x^k = -lead · Σ c_i x^i
                    digit = (x // p ** i) % p
                    x += (((digit - lead * coeffs[i]) % p) - digit) * p ** i
            if x == 1 and len(set(seen)) == q - 1:
                return seen
        raise AssertionError(f"no primitive polynomial for GF({q})")  # pragma: no cover

    def add(self, a: int, b: int) -> int:
        return self.add_table[a][b]

    def neg(self, a: int) -> int:
        return self.add_table[a].index(0)

    def sub(self, a: int, b: int) -> int:
        return self.add_table[a][self.neg(b)]

    def mul(self, a: int, b: int) -> int:
        if a == 0 or b == 0:
            return 0
        return self.exp[(self.log[a] + self.log[b]) % (self.q - 1)]

    def inv(self, a: int) -> int:
        return self.exp[(-self.log[a]) % (self.q - 1)]

    def power(self, i: int) -> int:
        """The primitive element to the ``i``-th power."""
        return self.exp[i % (self.q - 1)]


@lru_cache(maxsize=None)
def field(q: int) -> GF:
    """The (cached) field with ``q`` elements."""
    return GF(q)


__all__ = ["GF", "field", "prime_power"]

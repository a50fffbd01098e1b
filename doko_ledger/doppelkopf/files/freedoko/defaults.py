"""FreeDoko 0.7.13's rule block with its defaults: the layout its game logs write (options in
order, indented under the one they belong to, with its comments) and the defaults read from it.
A party file holds only the options it changes; the others keep these."""

from __future__ import annotations

LAYOUT = """\
number of rounds limited = true
  number of rounds = 5
points limited = false
  points = 40
number of duty soli = 0
  number of duty color soli = 0
  number of duty picture soli = 0
offer duty solo = true
lustsolo player leads = true
solo always counts triple = false
number of players = 4
number of players in game = 4

show if valid = true
show all hands = true
show tricks number = 12
show tricks in trickpiles = true
show trickpiles points = true
show known teams in game = true
show soloplayer in game = true

card hint = true
take back tricks = false

with nines = true

bock = true
  bock multiplier = 2
  append bock = false
  bock after 120-120 = true
  bock after lost solo = false
  bock after lost re/contra = false
  bock after heart trick = false
  bock after black game = false

throw with nines = true
min number of throwing nines = 5
throw with kings = false
min number of throwing kings = 5
throw with nines and kings = false
min number of throwing nines and kings = 7
throw with richness = false
min richness for throwing = 70

poverty = true
  poverty shift = true
  poverty shift only trump = false
  poverty fox do not count = false
  poverty fox shift extra = false
  poverty fox shift open = false
  throw with one trump = false
  throw when fox highest trump = false

marriage determination = 12
  marriage first foreign = true
  marriage first color = true
  marriage first single color = true
  marriage first trump = true
  marriage first one decides = false
  marriage before poverty = false

genscher = false

solo = true
  solo jack = true
  solo queen = true
  solo king = true
  solo queen jack = true
  solo king jack = true
  solo king queen = true
  solo koehler = true
  solo color = true
  solo meatless = true
  throwing before solo = false

dollen = true
  dollen second over first = true
  dollen contrary in last trick = false
  dollen first over second with swines = false

swines = true
  swines in solo = true
  swines in poverty = true
  swines announcement begin = true
  swine only second = false
hyperswines = false
  hyperswines in solo = true
  hyperswines in poverty = true
  hyperswines announcement begin = true
  swines and hyperswines joint = false

# Extrapoints:
extrapoint catch fox = true
extrapoint catch fox last trick = false
extrapoint fox last trick = true
extrapoint double fox last trick = false
extrapoint dolle jabs dolle = false
extrapoint heart trick = false
extrapoint charlie = true
extrapoint catch charlie = true
extrapoint double charlie = false
extrapoint catch double charlie = false
extrapoint catch charlie only with diamond queen = false

announcement first trick thirty points = true
announcement first trick thirty points only first = false
announcement first trick thirty points only re/contra = true
announcement first trick thirty points in marriage = true
announcement re/contra doubles = true
announcement contra doubles against re = false

# till when to make the announcements:
knocking = false
announcement no 120 = 11
announcement no 90 = 9
announcement no 60 = 6
announcement no 30 = 3
announcement no 0 = 3
last announcement = 3
announcement till full trick = false
announcement reply = true
announcement strict limit = false

counting = plus
"""
"""FreeDoko's rule block as it writes it, with its defaults: the order, the indentation that
shows which option depends on which, and the comments."""


def flag(value: bool) -> str:
    """A switch as the block writes it: `true` or `false`."""
    return "true" if value else "false"


def option_line(line: str) -> tuple[str, str] | None:
    """The option and value of a line of the block (None for a comment or a blank line)."""
    name, equals, value = line.strip().partition(" = ")
    return (name, value) if equals and not name.startswith("#") else None


DEFAULTS: dict[str, str] = dict(filter(None, map(option_line, LAYOUT.splitlines())))
"""Every option of the block and its default."""

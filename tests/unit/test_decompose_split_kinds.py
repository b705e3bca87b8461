"""Decomposition kinds found in the Factcheck-GPT and WiCE dev sets (verb phrases of one subject,
participial clauses, shared auxiliaries, ...), and splits that keep the meaning (a lead-in or hedge
of the first verb qualifies every verb of its subject).

Expected values come from the decomposition rules (docs/DECOMPOSITION.md) and from FActScore's
definition of an atomic claim (Min et al. 2023: one piece of information, standing alone); each
row's comment names the kind and the dev-set text it stands for.
"""

from __future__ import annotations

import pytest

from claims.decompose import decompose


@pytest.mark.parametrize(
    ("text", "claims"),
    [
        # a list of verb phrases with one subject: the small model read "published" as a
        # participle on "teams" (Factcheck-GPT evidence gave "Sports teams was published books")
        # and "wrote" as unattached (no split at all); claims.parse_repairs.repair mends both
        (
            "He purchased sports teams, published books, and served as the host of a TV show.",
            ["He purchased sports teams.", "He published books.", "He served as the host of a TV show."],
        ),
        (
            "She founded a startup, wrote two novels, and served as mayor of Oslo.",
            ["She founded a startup.", "She wrote two novels.", "She served as mayor of Oslo."],
        ),
        # the main verb after a set-off participial clause was read as a second participle
        # ("The bridge was opened in 1998")
        (
            "The bridge, designed by Rosa Feld, opened in 1998.",
            ["The bridge opened in 1998.", "The bridge was designed by Rosa Feld."],
        ),
        (
            "The bridge, designed by Rosa Feld, crosses the river Aln.",
            ["The bridge crosses the river Aln.", "The bridge was designed by Rosa Feld."],
        ),
        # a coordinated verb keeps the auxiliaries it shares (WiCE: "It was shown ... and given
        # a limited cinema release" gave "It given a limited cinema release"; a lost "will"
        # turned a plan into a fact)
        (
            "The museum will be closed in May and reopened in June.",
            ["The museum will be closed in May.", "The museum will be reopened in June."],
        ),
        (
            "The museum will close in May and reopen in June.",
            ["The museum will close in May.", "The museum will reopen in June."],
        ),
        (
            "The bridge was designed by Rosa Feld and built by Halvorsen AS.",
            ["The bridge was designed by Rosa Feld.", "The bridge was built by Halvorsen AS."],
        ),
        # after "has been" a past form may be active: nothing is shared (not "The firm
        # has been lost in court")
        (
            "The firm has been sued by Apple and lost in court.",
            ["The firm has been sued by Apple.", "The firm lost in court."],
        ),
        # a conjunct's own adverb or object is its own (not "stolen by police",
        # "arrested with fraud")
        (
            "The painting was stolen and later recovered by police in 2005.",
            ["The painting was stolen.", "The painting was later recovered by police in 2005."],
        ),
        (
            "The suspect was arrested and charged with fraud.",
            ["The suspect was arrested.", "The suspect was charged with fraud."],
        ),
        (
            "He has won two titles and reached the final.",
            ["He has won two titles.", "He has reached the final."],
        ),
        # a past tense after a passive shares nothing, nor does a finite verb
        ("He was born in 1950 and died in 2010.", ["He was born in 1950.", "He died in 2010."]),
        (
            "The bridge opened in 1998 and carries two lanes.",
            ["The bridge opened in 1998.", "The bridge carries two lanes."],
        ),
        # a bare passive participle shares what follows the participle coordinated after it
        # (WiCE "Chen was born and raised in New York" gave "Chen was born."); an active verb
        # shares nothing ("He sang and played the guitar")
        (
            "The film was written and directed by Greta Gerwig.",
            ["The film was written by Greta Gerwig.", "The film was directed by Greta Gerwig."],
        ),
        (
            "Chen was born and raised in New York.",
            ["Chen was born in New York.", "Chen was raised in New York."],
        ),
        ("He sang and played the guitar.", ["He sang.", "He played the guitar."]),
        # a relative "when"/"where" on a time or place states the clause there (WiCE: "since
        # 2011, when it was created" gave "2011 when it was created ..."); a nested relative
        # clause keeps its pronoun ("initiatives call for trust" lost its "that")
        (
            "She moved to Oslo, where she founded a gallery.",
            ["She moved to Oslo.", "She founded a gallery in Oslo."],
        ),
        (
            "The council was founded in 2016, when it replaced the old board.",
            ["The council was founded in 2016.", "It replaced the old board in 2016."],
        ),
        (
            "Nazir chairs the Business Council, which backs initiatives that call for trust.",
            [
                "Nazir chairs the Business Council.",
                "The Business Council backs initiatives that call for trust.",
            ],
        ),
        # a list member shares the first member's indefinite article (WiCE "is an American
        # model, actress, and reality television personality" gave "Jasmine Waltz is actress")
        (
            "Jasmine Waltz is an American model, actress, and reality television personality.",
            [
                "Jasmine Waltz is an American model.",
                "Jasmine Waltz is an actress.",
                "Jasmine Waltz is a reality television personality.",
            ],
        ),
        (
            "The shop sells a lamp, chairs and tables.",
            ["The shop sells a lamp.", "The shop sells chairs.", "The shop sells tables."],
        ),
        # "they" points at a plural or at a group, never at one person (WiCE: "Before they
        # established themselves ..., Dominique Van Roost was ..." gave "Dominique Van Roost
        # established themselves ..."); a coordinated subject is one plural mention
        (
            "Clijsters and Henin turned professional in 1997. They won many titles.",
            ["Clijsters and Henin turned professional in 1997.", "Clijsters and Henin won many titles."],
        ),
        (
            "Coldplay formed in London. They released Parachutes in 2000.",
            ["Coldplay formed in London.", "Coldplay released Parachutes in 2000."],
        ),
        (
            "Marit Olsen joined the firm in 1990. They hired her again in 2001.",
            ["Marit Olsen joined the firm in 1990.", "They hired her again in 2001."],
        ),
        # a relative "whose" becomes the noun's possessive (it gave "The Bristol Choral Society
        # whose concerts are held in Bath")
        (
            "She joined the Bristol Choral Society, whose concerts are held in Bath.",
            [
                "She joined the Bristol Choral Society.",
                "The Bristol Choral Society's concerts are held in Bath.",
            ],
        ),
        # after a relative clause on the subject, the small model misreads the main verb: as an
        # adjective of its object ("studied physics" gave "Won two Nobel Prizes."), as a
        # participle ("published ..." left the sentence whole), or the clause's object as a
        # second subject ("who co-founded Apple, introduced" gave "Jobs, who co-founded died in
        # 2011."); a verb read right keeps its reading
        (
            "Marie Curie, who was born in Warsaw, studied physics and won two Nobel Prizes.",
            [
                "Marie Curie studied physics.",
                "Marie Curie was born in Warsaw.",
                "Marie Curie won two Nobel Prizes.",
            ],
        ),
        (
            "Darwin, who sailed on the Beagle, published On the Origin of Species in 1859.",
            ["Darwin published On the Origin of Species in 1859.", "Darwin sailed on the Beagle."],
        ),
        (
            "Bach, who lived in Leipzig, composed cantatas and played the organ.",
            ["Bach composed cantatas.", "Bach lived in Leipzig.", "Bach played the organ."],
        ),
        (
            "Jobs, who co-founded Apple, introduced the iPhone and died in 2011.",
            ["Jobs introduced the iPhone.", "Jobs co-founded Apple.", "Jobs died in 2011."],
        ),
        (
            "Newton, who was born in 1643, formulated the laws of motion and invented calculus.",
            [
                "Newton formulated the laws of motion.",
                "Newton was born in 1643.",
                "Newton invented calculus.",
            ],
        ),
        # "they" after two people named together in its sentence means them (it gave "Google
        # were PhD students ..."); "This is because ..." explains the event, no noun (it gave
        # "Water is because ..."); a list's generic lead-in names its topic for "It" (it gave
        # "Key facts about the Eiffel Tower is 330 metres tall.")
        (
            "Google was founded by Larry Page and Sergey Brin in 1998 while they were PhD students.",
            [
                "Google was founded by Larry Page and Sergey Brin in 1998.",
                "Larry Page and Sergey Brin were PhD students while Google was founded.",
            ],
        ),
        (
            "Water boils at 100 °C at sea level. This is because pressure is high.",
            ["Water boils at 100 °C at sea level.", "This is because pressure is high."],
        ),
        (
            "The bridge opened in 1998. This is the longest bridge in Norway.",
            ["The bridge opened in 1998.", "The bridge is the longest bridge in Norway."],
        ),
        (
            "Key facts about the Eiffel Tower:\n- It was completed in 1889.\n- It is 330 metres tall.",
            ["The Eiffel Tower was completed in 1889.", "The Eiffel Tower is 330 metres tall."],
        ),
        # a relative clause whose pronoun is its object puts the noun after the verb (it gave
        # "The Model T Ford introduced in 1908." and "NeXT Apple bought in 1996.")
        (
            "The Model T, which Ford introduced in 1908, cost $850.",
            ["The Model T cost $850.", "Ford introduced the Model T in 1908."],
        ),
        ("He founded NeXT, which Apple bought in 1996.", ["He founded NeXT.", "Apple bought NeXT in 1996."]),
        ("He married Anna, whom he met in Paris.", ["He married Anna.", "He met Anna in Paris."]),
        # in a denied clause the member after "but" holds (it gave "Pluto is not a dwarf
        # planet."); "but not" denies its member, as before
        ("Pluto is not a planet but a dwarf planet.", ["Pluto is not a planet.", "Pluto is a dwarf planet."]),
        (
            "The drug is not an antibiotic but an antiviral.",
            ["The drug is not an antibiotic.", "The drug is an antiviral."],
        ),
        (
            "The phone supports Wi-Fi 6 but not Bluetooth 5.3.",
            ["The phone supports Wi-Fi 6.", "It is not the case that the phone supports Bluetooth 5.3."],
        ),
        # citation marks stuck to a word or a stop are blanks (it gave "Tenda is based in
        # Madrid[2." and took "2001.[1] It has ..." for one sentence)
        (
            "Tenda was founded in 2001[1] and is based in Madrid[2].",
            ["Tenda was founded in 2001.", "Tenda is based in Madrid."],
        ),
        (
            "Tenda was founded in 2001.[1] It has 450 employees.[2][3]",
            ["Tenda was founded in 2001.", "Tenda has 450 employees."],
        ),
        # a title or a company name with "and" in it is one object (it gave "Tolstoy wrote
        # War." and "Tolstoy wrote Peace."); persons and places are still listed
        ("Tolstoy wrote War and Peace.", ["Tolstoy wrote War and Peace."]),
        (
            "Jane Austen wrote Pride and Prejudice and Emma.",
            ["Jane Austen wrote Pride and Prejudice.", "Jane Austen wrote Emma."],
        ),
        (
            "Hemingway wrote The Old Man and the Sea in 1951.",
            ["Hemingway wrote The Old Man and the Sea in 1951."],
        ),
        ("The film stars Tom Hanks and Meg Ryan.", ["The film stars Tom Hanks.", "The film stars Meg Ryan."]),
        # a list of names read as appositions of the first (WiCE gave "They include Erik
        # Hersman Juliana Rotich, Ory Okolloh."); places keep their apposition
        (
            "The founders were Erik Hersman, Juliana Rotich and David Kobia.",
            [
                "The founders were Erik Hersman.",
                "The founders were Juliana Rotich.",
                "The founders were David Kobia.",
            ],
        ),
        (
            "The firm has offices in Austin, Texas and Denver, Colorado.",
            ["The firm has offices in Austin, Texas and Denver, Colorado."],
        ),
        # a verb with a prefix split at its hyphen ("Steve Jobs co-." and
        # "Steve Jobs founded Apple"); a conjunct with its own subject shares nothing ("Jobs was
        # later ousted in 1997"); "where" hung on a year is about the place before it; a name's
        # number stays with the name ("The iPhone was released in 2023")
        ("Steve Jobs co-founded Apple in 1976.", ["Steve Jobs co-founded Apple in 1976."]),
        ("The phone can be pre-ordered from Friday.", ["The phone can be pre-ordered from Friday."]),
        (
            "Jobs was later ousted, but he returned in 1997.",
            ["Jobs was later ousted.", "He returned in 1997."],
        ),
        (
            "Napoleon was exiled to Elba in 1814, where he stayed for less than a year.",
            ["Napoleon was exiled to Elba in 1814.", "He stayed for less than a year in Elba."],
        ),
        (
            "The iPhone 15, which was released in 2023, has a 6.1-inch display.",
            ["The iPhone 15 has a 6.1-inch display.", "The iPhone 15 was released in 2023."],
        ),
        # "neither ... nor" names no "they"; a title apposition is no list member;
        # a mass noun gets no article
        (
            "Neither Clijsters nor Henin played in 2008. They returned in 2009.",
            ["Neither Clijsters nor Henin played in 2008.", "They returned in 2009."],
        ),
        (
            "He met Barack Obama, President of the United States, and Angela Merkel.",
            ["He met Barack Obama, President of the United States, and Angela Merkel."],
        ),
        (
            "She owns a car, furniture and jewellery.",
            ["She owns a car.", "She owns furniture.", "She owns jewellery."],
        ),
        # a clause after "nor" denies ("Did the company announce layoffs." would be
        # the opposite claim); a sentence-final "which is a myth" denies the clause before it
        # ("Space is a common myth.")
        (
            "The company did not acquire Slack, nor did it announce layoffs.",
            ["The company did not acquire Slack.", "The company did not announce layoffs."],
        ),
        (
            "The Great Wall of China is visible from space, which is a common myth.",
            ["It is false that the Great Wall of China is visible from space."],
        ),
        # "neither ... nor" stays one denied claim (apart it would give "He was
        # charged"); a judging noun after a comma denies the clause; a verb read as a noun
        # keeps the sentence whole rather than lose its values ("Costs $300." alone); a name
        # read as a compound of a hyphenated verb is its subject
        ("He was neither arrested nor charged.", ["He was neither arrested nor charged."]),
        ("The company sells neither cars nor bikes.", ["The company sells neither cars nor bikes."]),
        ("Bats are blind, a common myth that persists today.", ["It is false that bats are blind."]),
        (
            "The monitor refreshes at 144 Hz and costs $300.",
            ["The monitor refreshes at 144 Hz and costs $300."],
        ),
        (
            "Wozniak co-designed the Apple I and re-engineered the Apple II.",
            ["Wozniak co-designed the Apple I.", "Wozniak re-engineered the Apple II."],
        ),
    ],
)
def test_decomposition_kinds_from_the_dev_sets(text: str, claims: list[str]) -> None:
    assert [c.text for c in decompose(text)] == claims


@pytest.mark.parametrize(
    ("text", "claims"),
    [
        # one row per kind of changed meaning.
        # A lead-in or hedge of the first verb qualifies every verb of its subject (the second
        # claim must not state as fact what is conditional, attributed or alleged)
        (
            "Unless treated, the infection spreads to the bloodstream and causes sepsis.",
            [
                "Unless treated, the infection spreads to the bloodstream.",
                "Unless treated, the infection causes sepsis.",
            ],
        ),
        (
            "According to Reuters, the company laid off 500 employees and closed two plants.",
            [
                "According to Reuters, the company laid off 500 employees.",
                "According to Reuters, the company closed two plants.",
            ],
        ),
        (
            "The suspect allegedly stole a car and fled to Mexico.",
            ["The suspect allegedly stole a car.", "The suspect allegedly fled to Mexico."],
        ),
        # a time of its own keeps the lead-in's time off (else "In 2010, Smith later founded a
        # startup in 2015" contradicts 2015)
        (
            "In 2010, Smith joined Google and later founded a startup in 2015.",
            ["In 2010, Smith joined Google.", "Smith later founded a startup in 2015."],
        ),
        (
            "Until 2015, the company was based in Boston and had 300 employees.",
            ["Until 2015, the company was based in Boston.", "Until 2015, the company had 300 employees."],
        ),
        # "respectively" that cannot pair its lists keeps the sentence whole (not "Alice earned 2
        # dollars.")
        (
            "Alice and Bob earned 2 and 3 million dollars, respectively.",
            ["Alice and Bob earned 2 and 3 million dollars, respectively."],
        ),
        # a first name that is a place there is no person ("Florence praised his work.")
        (
            "Peter Hall met Mary Jones in Florence. She praised his work.",
            ["Peter Hall met Mary Jones in Florence.", "Mary Jones praised his work."],
        ),
        # a source goes for every clause it leads (else "Profits rose." stands alone and is
        # contradicted); a denied modifier denies its member ("supports not satellite messaging")
        (
            "According to the report, sales fell, but profits rose.",
            ["According to the report, sales fell.", "According to the report, profits rose."],
        ),
        (
            "The phone supports Wi-Fi 7 but not satellite messaging.",
            [
                "The phone supports Wi-Fi 7.",
                "It is not the case that the phone supports satellite messaging.",
            ],
        ),
        # a list hung on another noun is no pair for "respectively" (not "The iPhone 15 Pro
        # start at $799.")
        (
            "The iPhone 15 and iPhone 15 Pro start at $799 and $999, respectively.",
            ["The iPhone 15 and iPhone 15 Pro start at $799 and $999, respectively."],
        ),
        # a choice holds only whole ("The capital is Sydney." + "The capital is Canberra." was
        # two claims of which one is false); under a denial each member is denied
        ("The capital is either Sydney or Canberra.", ["The capital is either Sydney or Canberra."]),
        ("The board may approve the deal or reject it.", ["The board may approve the deal or reject it."]),
        ("He studied medicine instead of law.", ["He studied medicine instead of law."]),
        (
            "The museum never charged fees or closed on Mondays.",
            ["The museum never charged fees or closed on Mondays."],
        ),
        (
            "The company did not confirm the layoffs or the plant closure.",
            ["The company did not confirm the layoffs.", "The company did not confirm the plant closure."],
        ),
        # "not" hung on "but" by the parser still denies its member
        (
            "The phone supports 5G but not Wi-Fi 7.",
            ["The phone supports 5G.", "It is not the case that the phone supports Wi-Fi 7."],
        ),
        # "this" and a plural point at no singular thing; a "which" after a year is the event
        (
            "The bank collapsed in 2008. This triggered a global crisis.",
            ["The bank collapsed in 2008.", "This triggered a global crisis."],
        ),
        (
            "The Romans built the Colosseum. It could hold 50,000 spectators.",
            ["The Romans built the Colosseum.", "It could hold 50,000 spectators."],
        ),
        (
            "The dam failed in 1975, which killed an estimated 26,000 people.",
            ["The dam failed in 1975, which killed an estimated 26,000 people."],
        ),
        # a name keeps its number and its "of" ("The University has 27,000 students.")
        (
            "The University of Oslo was founded in 1811. It has 27,000 students.",
            ["The University of Oslo was founded in 1811.", "The University of Oslo has 27,000 students."],
        ),
        (
            "Windows 11 was released in 2021. It requires TPM 2.0.",
            ["Windows 11 was released in 2021.", "Windows 11 requires TPM 2.0."],
        ),
        # values keep their sign ("Rates reached 4.5.") and "approx." before a sign ends nothing
        ("Rates rose in 2022, reaching 4.5%.", ["Rates rose in 2022.", "Rates reached 4.5%."]),
        ("The ticket costs approx. $50.", ["The ticket costs approx. $50."]),
        # an enumeration of a counted plural stays whole; "both" goes with its list
        (
            "The three primary colors are red, yellow and blue.",
            ["The three primary colors are red, yellow and blue."],
        ),
        (
            "Leonardo was both a painter and an engineer.",
            ["Leonardo was a painter.", "Leonardo was an engineer."],
        ),
        # a sum joined by "plus" is one value: apart, "The fee is tax" reads false (sentences
        # written for this test); a list of things joined by "plus" is split as "and" is
        ("The fee is 20 dollars plus tax.", ["The fee is 20 dollars plus tax."]),
        ("The total is price plus tax.", ["The total is price plus tax."]),
        (
            "Kara Lind won 3 gold medals plus a silver medal.",
            ["Kara Lind won 3 gold medals.", "Kara Lind won a silver medal."],
        ),
        (
            "The Orsa kit includes a tent plus two poles.",
            ["The Orsa kit includes a tent.", "The Orsa kit includes two poles."],
        ),
        # long claims that differ in one word are two claims, not duplicates
        (
            "Patients on the drug for six months showed a significantly higher risk of diabetes than the "
            "placebo group. Patients on the drug for six months showed a significantly lower risk of "
            "diabetes than the placebo group.",
            [
                "Patients on the drug for six months showed a significantly higher risk of diabetes than the "
                "placebo group.",
                "Patients on the drug for six months showed a significantly lower risk of diabetes than the "
                "placebo group.",
            ],
        ),
    ],
)
def test_meaning_kept_kinds(text: str, claims: list[str]) -> None:
    assert [c.text for c in decompose(text)] == claims

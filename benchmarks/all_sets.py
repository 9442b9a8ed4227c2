"""Every labelled set and talk corpus of the repository, scored in one command.

    python benchmarks/all_sets.py [--out runs/all] [--corpus-fit-share 0.5] [--only NAME ...]

Prints, per set: rows, family accuracy, action exact match and false actions (device steps on rows
that expect none, and device steps not in expect.actions); for question sets (rows with a `question`),
the share that reaches DQR through the real route instead of a family accuracy. Writes each run (decisions, metrics,
errors.jsonl) under --out. Talk corpora in ../shared/corpora/ are split by a stable hash of the row
id into a part that may be fitted on and a part that never is; both parts are reported.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from pathlib import Path

from dataflow.workbench.batch import run_batch
from dataflow.driver import TurnRunner

ROOT = Path(__file__).resolve().parent.parent
SETS = {
    "core (tuned on)": ROOT / "data/utterances/core.jsonl",
    "dev_holdout (never tuned on)": ROOT / "data/utterances/dev_holdout.jsonl",
    "holdout_v2 (written before tuning, never tuned on)": ROOT / "data/utterances/holdout_v2.jsonl",
    "holdout_v3 (written blind, never tuned on)": ROOT / "data/utterances/holdout_v3.jsonl",
    "holdout_v4 (written blind, never tuned on)": ROOT / "data/utterances/holdout_v4.jsonl",
    "holdout_v5 (written blind, never tuned on)": ROOT / "data/utterances/holdout_v5.jsonl",
    "holdout_v6 (written blind, never tuned on)": ROOT / "data/utterances/holdout_v6.jsonl",
    "holdout_v7 (written blind, never tuned on)": ROOT / "data/utterances/holdout_v7.jsonl",
    "holdout_v8 (written blind, never tuned on)": ROOT / "data/utterances/holdout_v8.jsonl",
    "holdout_v9 (written blind, never tuned on)": ROOT / "data/utterances/holdout_v9.jsonl",
    "train_v2 (fit set)": ROOT / "data/utterances/train_v2.jsonl",
    "train_v3 (written blind, fit set)": ROOT / "data/utterances/train_v3.jsonl",
    "train_v4 (written blind, fit set)": ROOT / "data/utterances/train_v4.jsonl",
    "train_v5 (written blind, fit set)": ROOT / "data/utterances/train_v5.jsonl",
    "train_v14 (FRG, SCH, DEF and identity rows written blind 2026-12-04, fit set)": ROOT / "data/utterances/train_v14.jsonl",
    "talk_capability (talk rows)": ROOT / "data/utterances/talk_capability.jsonl",
    "talk_redteam (red-team talk, fit)": ROOT / "data/utterances/talk_redteam.jsonl",
    "talk_redteam_v12 (red-team talk: phone calls, people, other devices, play; written blind 2026-12-03, fit)":
        ROOT / "data/utterances/talk_redteam_v12.jsonl",
    "talk_redteam_v15 (red-team talk: people, phone calls, media, games, quotes, narratives, dictation; written blind 2026-12-04, fit)":
        ROOT / "data/utterances/talk_redteam_v15.jsonl",
    "talk_redteam_v17 (red-team talk: calls said last, deliberation, other devices named before, narratives, games and dictation, questions to people; written blind 2026-12-04 session 32, fit)":
        ROOT / "data/utterances/talk_redteam_v17.jsonl",
    "talk_blind_v10_fit (talk written blind 2026-12-03, fit part)": ROOT / "data/utterances/talk_blind_v10_fit.jsonl",
    "talk_blind_v10_holdout (talk written blind 2026-12-03, never tuned on)": ROOT / "data/utterances/talk_blind_v10_holdout.jsonl",
    "blind_v11_fit (talk, other systems, fragments, product questions, requests; written blind 2026-12-03, fit part)":
        ROOT / "data/utterances/blind_v11_fit.jsonl",
    "blind_v11_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v11_holdout.jsonl",
    "blind_v12_fit (talk, other systems, fragments, product questions, requests; written blind 2026-12-03, fit part)":
        ROOT / "data/utterances/blind_v12_fit.jsonl",
    "blind_v12_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v12_holdout.jsonl",
    "blind_v13_fit (talk, other systems, fragments, product questions, requests; written blind 2026-12-04 by two helpers, fit part)":
        ROOT / "data/utterances/blind_v13_fit.jsonl",
    "blind_v13_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v13_holdout.jsonl",
    "blind_v16_fit (talk, other systems, fragments, product questions, requests; written blind 2026-12-04 session 32, fit part)":
        ROOT / "data/utterances/blind_v16_fit.jsonl",
    "blind_v16_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v16_holdout.jsonl",
    "blind_v18_fit (talk, other systems and services, fragments, product questions, rare requests; written blind 2026-12-04 session 33, fit part)":
        ROOT / "data/utterances/blind_v18_fit.jsonl",
    "blind_v18_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v18_holdout.jsonl",
    "blind_v19_fit (overheard talk, other systems and services, fragments, product questions, requests with reasons; written blind 2026-12-04 session 34, fit part)":
        ROOT / "data/utterances/blind_v19_fit.jsonl",
    "blind_v19_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v19_holdout.jsonl",
    "blind_v21_fit (overheard talk, other systems, fragments, product questions, requests; written blind 2026-12-04 session 35, fit part)":
        ROOT / "data/utterances/blind_v21_fit.jsonl",
    "blind_v21_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v21_holdout.jsonl",
    "blind_v23_fit (overheard talk, other systems and services, fragments, product questions, requests in new phrasings; written blind 2026-12-04 session 36, fit part)":
        ROOT / "data/utterances/blind_v23_fit.jsonl",
    "blind_v23_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v23_holdout.jsonl",
    "blind_v24_fit (overheard talk, other systems, fragments, product questions, requests in new phrasings; written blind 2026-12-05 session 37, fit part)":
        ROOT / "data/utterances/blind_v24_fit.jsonl",
    "blind_v24_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v24_holdout.jsonl",
    "blind_v26_fit (overheard talk, other systems, fragments, product questions, requests, half without punctuation; written blind 2026-12-05 session 38, fit part)":
        ROOT / "data/utterances/blind_v26_fit.jsonl",
    "blind_v26_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v26_holdout.jsonl",
    "blind_v27_fit (overheard talk, other systems and assistants, fragments, product questions, requests, half raw ASR; written blind 2026-12-05 session 39, fit part)":
        ROOT / "data/utterances/blind_v27_fit.jsonl",
    "blind_v27_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v27_holdout.jsonl",
    "blind_v30_fit (overheard talk, other systems and assistants, fragments, product questions and problem reports, requests, half raw ASR; written blind 2026-12-05 session 40, fit part)":
        ROOT / "data/utterances/blind_v30_fit.jsonl",
    "blind_v30_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v30_holdout.jsonl",
    "blind_v31_fit (overheard everyday talk, other systems and assistants, fragments, product questions, requests, half raw ASR; written blind 2026-12-05 session 40, fit part)":
        ROOT / "data/utterances/blind_v31_fit.jsonl",
    "blind_v31_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v31_holdout.jsonl",
    "blind_v32_fit (overheard talk, other systems, fragments and slips, product questions, requests, half raw ASR; written blind 2026-12-05 session 41, fit part)":
        ROOT / "data/utterances/blind_v32_fit.jsonl",
    "blind_v32_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v32_holdout.jsonl",
    "blind_v37_fit (overheard talk, other devices and brands, fragments and slips, product questions, requests, mostly raw ASR; written blind 2026-12-05 session 42, fit part)":
        ROOT / "data/utterances/blind_v37_fit.jsonl",
    "blind_v37_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v37_holdout.jsonl",
    "blind_v38_fit (everyday talk, other systems and assistants, fragments, product questions and problem reports; no requests; 92% without marks; written blind 2026-12-05 session 42, fit part)":
        ROOT / "data/utterances/blind_v38_fit.jsonl",
    "blind_v38_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v38_holdout.jsonl",
    "blind_v41_fit (the four scored kinds again: everyday talk, commands for other systems, fragments, product questions; written blind 2026-12-05 session 43, fit part)":
        ROOT / "data/utterances/blind_v41_fit.jsonl",
    "blind_v41_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v41_holdout.jsonl",
    "blind_v43_fit (the four scored kinds in other voices: households' transcripts and dialects, scenes and IoT apps, cut-off speech and TV snippets, product worries; written blind 2026-12-05 session 43, fit part)":
        ROOT / "data/utterances/blind_v43_fit.jsonl",
    "blind_v43_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v43_holdout.jsonl",
    "blind_v44_fit (the four scored kinds again, 100 each: overheard home talk with capability words, commands for other systems and assistants, fragments and slips, product questions with numbers and symptoms; 60% raw ASR; written blind 2026-12-05 session 44, fit part)":
        ROOT / "data/utterances/blind_v44_fit.jsonl",
    "blind_v44_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v44_holdout.jsonl",
    "blind_v45_fit (the four scored kinds in new voices, 100 each: talk in a home with elderly parents and a caregiver, roommates, calls, gaming, recipe videos; commands for other systems; fragments and slips; product questions; written blind 2026-12-05 session 45, fit part)":
        ROOT / "data/utterances/blind_v45_fit.jsonl",
    "blind_v45_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v45_holdout.jsonl",
    "blind_v46_fit (the four scored kinds in new voices, 100 each: a farming household in 충청도 and 전라도 speech, a night-shift nurse, a teenager, newlyweds, a home office, a grandparent babysitting, a spouse learning Korean; other systems; fragments; product questions; written blind 2026-12-05 session 46, fit part)":
        ROOT / "data/utterances/blind_v46_fit.jsonl",
    "blind_v46_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v46_holdout.jsonl",
    "blind_v47_fit (the four scored kinds in new voices, 100 each: a 경상도 household, a 제주 grandmother, a user who cannot see, a primary-school child, a shop owner, a retired man alone, a night streamer, a cook, a Vietnamese-Korean spouse, a couple arguing, raw ASR; written blind 2026-12-05 session 47, fit part)":
        ROOT / "data/utterances/blind_v47_fit.jsonl",
    "blind_v47_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v47_holdout.jsonl",
    "blind_v48_fit (the four scored kinds in new voices, 100 each: a 부산/대구 couple, a 강원도 farmer, a texting teenager, a 조선족 caregiver, a hurried home worker, a grandmother hard of hearing, a night-shift nurse, heavy ASR, a parent with a toddler, a gamer; written blind 2026-12-06 session 48, fit part)":
        ROOT / "data/utterances/blind_v48_fit.jsonl",
    "blind_v48_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v48_holdout.jsonl",
    "blind_v49_fit (the four scored kinds in new voices, 100 each: 전라도 and 제주 speech, a child, a Korean-American mixing English, dictation, a bickering couple, kitchen narration, an online student, a landlord on the phone, subtitles read aloud; written blind 2026-12-06 session 49, fit part)":
        ROOT / "data/utterances/blind_v49_fit.jsonl",
    "blind_v49_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v49_holdout.jsonl",
    "blind_v50_fit (the four scored kinds in new voices, 100 each: 충청도 speech, a grandmother with fillers, teenage slang, talk to pets and babies, a scolding parent, YouTube and sports voices, a Korean lesson, movers, texts read aloud; other assistants' wake words; written blind 2026-12-06 session 50, fit part)":
        ROOT / "data/utterances/blind_v50_fit.jsonl",
    "blind_v50_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v50_holdout.jsonl",
    "blind_v51_fit (the four scored kinds in new voices, 100 each: a night-shift nurse, a work-from-home worker in a call, gamers on voice chat, a cooking live stream, a church-going grandmother, a foreign learner of Korean, bedtime role-play, an estate agent, an installer, a couple planning a wedding, dictated notes, a sleepy mumble, 강원도 and 경상도 speech, text read aloud by TTS, English code-switching; written blind 2026-12-06 session 51, fit part)":
        ROOT / "data/utterances/blind_v51_fit.jsonl",
    "blind_v51_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v51_holdout.jsonl",
    "blind_v52_fit (the four scored kinds in new voices, 100 each: a 충청도 farmer, a high-school student's slang, a retired teacher's 하십시오체, a busy parent, a speaker with a cold, a K-pop fan, a 조선족 speaker, a baker at dawn, a drunk speaker after a party, a hiker back home, a programmer's English jargon, a recipe read aloud, a sports commentator, a lawyer dictating, an elderly speaker hard of hearing, baby talk, 부산/경남 speech, a voice-message monologue; written blind 2026-12-06 session 52, fit part)":
        ROOT / "data/utterances/blind_v52_fit.jsonl",
    "blind_v52_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v52_holdout.jsonl",
    "blind_v53_fit (the four scored kinds in new voices, 100 each: a taxi driver after a night shift, a soldier on leave in 다나까체, a 경북 grandfather, a Korean learner from Vietnam, a seven-year-old, a live-commerce host, a radio DJ, a fitness trainer counting reps, a researcher mixing English terms, a chef calling orders, a speaker who stutters, ASR output without spacing, a church deacon, a game streamer, a 전남 auntie on speakerphone, newlyweds bickering, a webtoon artist at night, a grandmother teaching a grandchild; written blind 2026-12-06 session 53, fit part)":
        ROOT / "data/utterances/blind_v53_fit.jsonl",
    "blind_v53_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v53_holdout.jsonl",
    "blind_v54_fit (the four scored kinds in new voices, 100 each: a night-shift nurse, a K-drama fan, a 제주 grandmother, a 강원 speaker, a delivery rider, a student cramming, an office worker's jargon, a pet owner, a parent with a baby, a patient after surgery, a Chinese learner of Korean, Konglish, teenage abbreviations, a 75-year-old, a carer of a parent with dementia, a football fan, an insomniac whispering, a voice actor rehearsing; written blind 2026-12-06 session 54, fit part)":
        ROOT / "data/utterances/blind_v54_fit.jsonl",
    "blind_v54_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v54_holdout.jsonl",
    "blind_v55_fit (the four scored kinds in new voices, 100 each: a pharmacist after work, a 경남 fisherman, a 평안도-accented grandfather, a mother turning between her toddler and the robot, a hairdresser, a musician practising, a tour guide, half of a phone call, a person just woken, a Japanese learner of Korean, a yoga instructor, a retired soldier, slurred speech, a party host, a homeschooling parent, a text message dictated aloud, a gamer mid-match, 하십시오체 at the office; written blind 2026-12-06 session 55, fit part)":
        ROOT / "data/utterances/blind_v55_fit.jsonl",
    "blind_v55_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v55_holdout.jsonl",
    "blind_v56_fit (the four scored kinds in new voices, 100 each: a night-shift nurse, a 전라도 grandmother, a 충청도 farmer, a middle-school student, a newly married couple bickering, a streamer on air, a cook reading a recipe aloud, a taxi driver at home, a 조선족 speaker, a person with a cold, a kindergarten teacher, a real-estate agent showing the flat, a person practising a speech, a grandfather hard of hearing, a memo dictated, a K-pop fan, 합쇼체 to guests, a whisper at night; written blind 2026-12-06 session 56, fit part)":
        ROOT / "data/utterances/blind_v56_fit.jsonl",
    "blind_v56_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v56_holdout.jsonl",
    "blind_v57_fit (the four scored kinds in new voices, 100 each: a 부산 high-school girl, a market vendor, a baseball commentator at home, a 대구 taxi dispatcher, a Buddhist monk, a lawyer dictating, a daycare cook, a programmer on a call, a couple arguing about money, a grandfather with dentures, a North Korean defector, a 제주 young adult, a wedding planner, a web novel read aloud, a crossword solver, a gym-goer with earbuds, a Korean-American speaker, an apartment security guard; written blind 2026-12-06 session 57, fit part)":
        ROOT / "data/utterances/blind_v57_fit.jsonl",
    "blind_v57_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v57_holdout.jsonl",
    "blind_v58_fit (the four scored kinds in new voices, 100 each: a 울산 shipyard worker, a professor grading, a 인천 fishmonger, a flight attendant back from a trip, a visiting mother-in-law, ten-year-old twins, an off-duty firefighter, a Thai spouse learning Korean, a florist, a nail artist, a piano teacher with a pupil, a 세종 civil servant, a fortune teller, a golf fan, a dog trainer, a camper, an esports coach, a sign-language interpreter, a 경기 북부 grandfather; written blind 2026-12-07 session 58, fit part)":
        ROOT / "data/utterances/blind_v58_fit.jsonl",
    "blind_v58_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v58_holdout.jsonl",
    "blind_v59_fit (the four scored kinds in new voices, 100 each: a 광주 taxi-owner's wife, a PE teacher, a tteokbokki stall owner, a hospital night guard, a choir conductor, a 영덕 crab fisher, a kimchi-making grandmother, a university freshman, a translator working from home, a pilates instructor, a twin-stroller parent, a delivery dispatcher, a retired bank manager, a tattoo artist, a beekeeper, a street busker, a 포항 steelworker, a Mongolian student, a hospice volunteer; written blind 2026-12-07 session 59, fit part)":
        ROOT / "data/utterances/blind_v59_fit.jsonl",
    "blind_v59_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v59_holdout.jsonl",
    "blind_v60_fit (the four scored kinds in new voices, 100 each: a 목포 fishmonger, a 안동 elder, a 강릉 squid-boat captain, a 제주 haenyeo diver, a 청주 bus driver, a 보령 clam digger, a 창원 factory foreman, a 여수 ferry ticket clerk, a 원주 ski instructor, a 광주 taekwondo master, a German engineer learning Korean, a Filipino English teacher, an Uzbek factory worker, a Koryo-saram grandmother, a kindergarten boy, a retired postwoman, an amateur rapper, an insurance salesman, a long-haul trucker, a vet taking calls, a plumber, a Catholic nun, an architect, a whispering librarian; written blind 2026-12-07 session 60, fit part)":
        ROOT / "data/utterances/blind_v60_fit.jsonl",
    "blind_v60_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v60_holdout.jsonl",
    "blind_v61_fit (the four scored kinds in new voices, 100 each: an 울릉도 squid drier, a 포항 steelworker, a 진주 silk-weaving grandmother, a 남원 pansori singer, a 순천 eco guide, a 태백 retired miner, a 강화 ginseng grower, a Sakhalin returnee grandfather, a Nepali cook, a Russian skating coach, an Indonesian shipyard welder, a Pakistani used-car exporter, a baduk pro, an ER doctor off shift, an exam retaker, a call-centre agent, an air-traffic controller, a kimchi-factory worker, a convenience-store night clerk, a funeral director, a sommelier, a stand-up comedian rehearsing, a great-grandmother of 92, a guesthouse owner; written blind 2026-12-07 session 61, fit part)":
        ROOT / "data/utterances/blind_v61_fit.jsonl",
    "blind_v61_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v61_holdout.jsonl",
    "blind_v62_fit (the four scored kinds in new voices, 100 each: a 청송 apple grandfather, a 청주 knife sharpener, a 나주 gomtang owner, a 서귀포 tangerine farmer, a Kyrgyz nursing student, an Australian working-holiday barista, a Mexican spouse learning Korean, a Canadian hockey coach, an 울진 mushroom picker, a retired bank manager, a high-school baseball player, a college freshman in a dorm, a 전주 hanji craftsman, a 평창 cattle farmer, a 대구 chicken-pub owner, a 김해 ground handler, a freelance translator, a physical therapist, a visiting social worker, a line-dance instructor, a wedding photographer, a 논산 strawberry farmer, a zainichi grandmother, a driving instructor; written blind 2026-12-07 session 62, fit part)":
        ROOT / "data/utterances/blind_v62_fit.jsonl",
    "blind_v62_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v62_holdout.jsonl",
    "blind_v63_fit (the four scored kinds in new voices, 100 each: a 영월 rafting guide, a 상주 persimmon drier, a 완도 abalone farmer, a 천안 walnut-cake baker, a 제주 horse-ranch hand, a 함흥 naengmyeon grandfather, a Peruvian chef learning Korean, a Polish game developer, a Nigerian PhD student, a six-year-old dinosaur fan, a retired village midwife, an HVAC engineer, a cleanroom technician, a court stenographer, a Singapore returnee code-switching, an office intern typing without spaces, a mukbang YouTuber, a stay-home dad of triplets, a 여수 gat-kimchi maker, an 안동 mask dancer, a 경주 tour-bus driver, a podcast host rehearsing, a night-fishing hobbyist, an auction appraiser; written blind 2026-12-07 session 63, fit part)":
        ROOT / "data/utterances/blind_v63_fit.jsonl",
    "blind_v63_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v63_holdout.jsonl",
    "blind_v64_fit (the four scored kinds in new voices, 100 each: a 영암 fig farmer, a 서산 crab-marinade cook, a 문경 omija farmer, a 동해 cement-plant retiree, a 부산 port crane operator, a 김제 rice-mill owner, a 제주 stone-wall mason, a 마산 fish-cake maker, a Bangladeshi textile worker, a Chilean astronomy postdoc, an Italian opera student, an Iranian carpet merchant, a kindergarten bus driver, an elevator repair technician, a piano tuner, an escape-room owner, an elementary class president, a retired judge speaking 하십시오체, a thumb-typo texter, a tilde-heavy texter, a pilates studio owner, a grandfather on dialysis, a retired bird watcher, a home-shopping auntie; written blind 2026-12-07 session 64, fit part)":
        ROOT / "data/utterances/blind_v64_fit.jsonl",
    "blind_v64_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v64_holdout.jsonl",
    "blind_v65_fit (the four scored kinds in new voices, 100 each: a 하동 tea-shop grandmother, a 강진 celadon potter, a 보은 jujube farmer, a 제주 oreum guide, an 인제 military wife, a 태안 salt-farm worker, a 대구 fabric-market seller, a 부산 sauna manager, a 청도 bullfight grandfather, a 영광 gulbi seller, a Kazakh hotel intern, a Spanish flamenco learner, a Nagoya-born daughter-in-law, an eight-year-old Lego builder, a fourth-grade soccer kid, a widowed grandfather of 87, KTX cabin crew, a 평택 fab engineer, a night-shift zookeeper, a fashion-design student, a 강릉 barista, a retired diplomat speaking 하십시오체, a no-space voice-typing auntie, a masked dental hygienist; written blind 2026-12-07 session 65, fit part)":
        ROOT / "data/utterances/blind_v65_fit.jsonl",
    "blind_v65_holdout (same, never tuned on)": ROOT / "data/utterances/blind_v65_holdout.jsonl",
    "talk_redteam_v50 (red-team against session 50: reasons before requests, words taking a request back at the end, counters before 찍다 and 돌다; written blind 2026-12-06, fit)":
        ROOT / "data/utterances/talk_redteam_v50.jsonl",
    "talk_redteam_v51 (red-team against session 51: requests taken back by 잠깐만, hesitation after a request, the formal imperative, worse than usual, 얘 in trouble stories, errors shown on the way, negated privacy questions, the speaker's own part, words spaced by syllables, modes asked together; written blind 2026-12-06, fit)":
        ROOT / "data/utterances/talk_redteam_v51.jsonl",
    "talk_redteam_v52 (red-team against session 52: the robot called by name beside people called, 로봇아 before a state, states asked either way, what is left of the filter, 맥스, never mind after a request, false starts, product questions with slips and everyday names; written blind 2026-12-06, fit)":
        ROOT / "data/utterances/talk_redteam_v52.jsonl",
    "talk_redteam_v53 (red-team against session 53: together suggestions, honoured people heading the turn, devices called by name, what the speaker is busy with, formal wishes, two values offered with the copula, stops carried from a reason, another thing's parts, mode names and what is left, 하나 after 도, stutters before commas, product questions in everyday words, regional words, a person before their thing; written blind 2026-12-06, fit)":
        ROOT / "data/utterances/talk_redteam_v53.jsonl",
    "talk_redteam_v54 (red-team against session 54: ㄱㄱ and laughter typed as letters, commands before exclamations, the purifier itself switched on or off, English words in Hangul, the speaker in a time clause, Konglish product questions, error codes with slang; written blind 2026-12-06, fit)":
        ROOT / "data/utterances/talk_redteam_v54.jsonl",
    "talk_redteam_v55 (red-team against session 55: calls handed from a person or an assistant to the robot and back, kinds named with 이런 / 그런, group words as subject or call, 경상 -라 and 평안 -라우 imperatives, quoted; written blind 2026-12-06, fit)":
        ROOT / "data/utterances/talk_redteam_v55.jsonl",
    "talk_redteam_v56 (red-team against session 56: state words naming the case with 때 / 경우 / 동안, words recalled with a past copula, the robot described by its noun through joined verbs, benefactives under -면서, 알식스 called or talked about, 줘 / 주오 before a comma, reasons with 되니까, 뭐라고?, 어디 가 있어, 전라 / 충청 허 / 혀; written blind 2026-12-06, fit)":
        ROOT / "data/utterances/talk_redteam_v56.jsonl",
    "talk_redteam_v57 (red-team against session 57: the robot named as an object after a person called, stories asked for, public offices, noises written down as echoing syllables, bare 음소거, apps of calls and messages; written blind 2026-12-06, fit)":
        ROOT / "data/utterances/talk_redteam_v57.jsonl",
    "talk_redteam_v58 (red-team against session 58: reasons said after a request, 다들 heading a premise, necessities told without a mark, settings written together with their level, instruments and karaoke, nouns joined by 하고, the manual's service section, -으니, native numbers before 일; written blind 2026-12-07, fit)":
        ROOT / "data/utterances/talk_redteam_v58.jsonl",
    "talk_probe_v59 (red-team probe written 2026-12-07 session 59 by a helper that ran the router on its sentences to find false actions: photos asked of strangers, proposals, sounds of other things, turns in games, calls about elsewhere, manuals read aloud; both ways, fit)":
        ROOT / "data/utterances/talk_probe_v59.jsonl",
    "talk_redteam_v59 (red-team against session 59: proposals of people's acts and of the robot's, outside places proposed and asked, copula remarks and trailing fragments, necessities told and asked, other things' sounds, turns said to everyone; written blind 2026-12-07, fit)":
        ROOT / "data/utterances/talk_redteam_v59.jsonl",
    "requests_v39_fit (requests to the robot with reasons, guards, politeness, dialect, several steps, schedules; written blind 2026-12-05 session 42, fit part)":
        ROOT / "data/utterances/requests_v39_fit.jsonl",
    "requests_v39_holdout (same, never tuned on)": ROOT / "data/utterances/requests_v39_holdout.jsonl",
    "talk_redteam_v20 (red-team talk: requests to people or other devices with a reason after a comma, product words asked of family, rules for later, media and games; written blind 2026-12-04 session 34, fit)":
        ROOT / "data/utterances/talk_redteam_v20.jsonl",
    "talk_redteam_v22 (red-team talk: calls mid-turn, other assistants and devices by name, narration and play, plans among people, slips, dialect; written blind 2026-12-04 session 35, fit)":
        ROOT / "data/utterances/talk_redteam_v22.jsonl",
    "talk_redteam_v25 (red-team talk against the session-37 mechanisms: afterthoughts, exclamative endings, unbidden verbs, 다오, names before rooms, a speaker's reason, calls before a mark, no punctuation; written 2026-12-05 session 37, fit)":
        ROOT / "data/utterances/talk_redteam_v25.jsonl",
    "talk_redteam_v28 (red-team talk against session 39: errands with a direction verb, hearsay, weather remarks, calls, read-aloud instructions, questions to people, narratives, slips, manner adverbs; half without marks; written 2026-12-05 session 39, fit)":
        ROOT / "data/utterances/talk_redteam_v28.jsonl",
    "talk_redteam_v33 (red-team talk against session 41: stop words said to people, kids, pets and games, group calls, quotes, narratives, read-aloud notices and manuals, other devices and assistants; half without marks; written 2026-12-05 session 41, fit)":
        ROOT / "data/utterances/talk_redteam_v33.jsonl",
    "talk_redteam_v34 (red-team product questions and problem reports with the robot's action words inside: can-it, how-to, hypotheticals, quoted commands, symptoms, comparisons; half without marks; written 2026-12-05 session 41, fit)":
        ROOT / "data/utterances/talk_redteam_v34.jsonl",
    "talk_redteam_v35 (red-team commands for other smart-home systems in the robot's own words: misspelt and abbreviated device names, brands, scenes, other assistants, family members; half without marks; written 2026-12-05 session 41, fit)":
        ROOT / "data/utterances/talk_redteam_v35.jsonl",
    "talk_redteam_v40 (red-team talk against session 42: polite wishes, 부탁, leave and levels said to people, makers, -려면 plans, running state of other machines, hesitation words, reasons before requests to people; written 2026-12-05 session 42, fit)":
        ROOT / "data/utterances/talk_redteam_v40.jsonl",
    "talk_redteam_v42 (red-team against session 43: alternatives with 아니면 / 아님, 원래 / 보통, denials and hedges alone, complaints with 너무 about the robot and other things, complaints as reasons before requests; written 2026-12-05 session 43, fit)":
        ROOT / "data/utterances/talk_redteam_v42.jsonl",
    "talk_redteam_v45 (red-team against session 45: people called by a title, apps with their own sound, other assistants called before a request, words for turning and dialect imperatives, identity questions as talk; written 2026-12-05 session 45, fit)":
        ROOT / "data/utterances/talk_redteam_v45.jsonl",
    "talk_redteam_v46 (red-team against session 46: X 말고 Y with assistants, appliances and persons, the robot named after another assistant, calls alone, quantities of the filter and of other things, its own running without a question mark, words said over and over, ranges with a counter, alternatives without a question mark; written 2026-12-05 session 46, fit)":
        ROOT / "data/utterances/talk_redteam_v46.jsonl",
    "talk_redteam_v47 (red-team against session 47: yes-or-no asked as two alternatives with and without a conjunction or mark, rooms with the copula, the same shapes said to people, about other appliances and places, contrasts, quotes, requests after an alternative; dialects; written 2026-12-05 session 47, fit)":
        ROOT / "data/utterances/talk_redteam_v47.jsonl",
    "talk_redteam_v48 (red-team against session 48: stop words after a capability with nothing to stop, X 하지 말고 Y, not knowing aloud, who made the robot, a level with no level, regional words, each both ways; written 2026-12-06 session 48, fit)":
        ROOT / "data/utterances/talk_redteam_v48.jsonl",
    "talk_redteam_v49 (red-team against session 49: on its own asked with ? and said as a request, -어도 questions and requests, a request form inside a question not known, imperatives quoted with 줘라고, each both ways; written 2026-12-06 session 49, fit)":
        ROOT / "data/utterances/talk_redteam_v49.jsonl",
    "other_systems_redteam (red-team, fit)": ROOT / "data/utterances/other_systems_redteam.jsonl",
    "requests_redteam (red-team, fit)": ROOT / "data/utterances/requests_redteam.jsonl",
    "experience_boundary": ROOT / "data/utterances/experience_boundary.jsonl",
    "dqr questions (tuned on)": ROOT / "data/questions/dqr.jsonl",
    "dqr_v2 questions (written blind, tuned on after)": ROOT / "data/questions/dqr_v2.jsonl",
    "dqr_train_v4 questions (written blind, fit set)": ROOT / "data/questions/dqr_train_v4.jsonl",
    "dqr_holdout questions (written blind, never tuned on)": ROOT / "data/questions/dqr_holdout.jsonl",
    "dqr_v3 questions (written blind, never tuned on)": ROOT / "data/questions/dqr_v3.jsonl",
    "dqr_train_v5 questions (written blind, fit set)": ROOT / "data/questions/dqr_train_v5.jsonl",
    "dqr_holdout_v5 questions (written blind, never tuned on)": ROOT / "data/questions/dqr_holdout_v5.jsonl",
    "dqr_train_v6 questions (written blind, fit set)": ROOT / "data/questions/dqr_train_v6.jsonl",
    "dqr_holdout_v6 questions (written blind, never tuned on)": ROOT / "data/questions/dqr_holdout_v6.jsonl",
    "dqr_train_v7 questions (written blind, fit set)": ROOT / "data/questions/dqr_train_v7.jsonl",
    "dqr_holdout_v7 questions (written blind, never tuned on)": ROOT / "data/questions/dqr_holdout_v7.jsonl",
    "dqr_train_v8 questions (written blind, fit set)": ROOT / "data/questions/dqr_train_v8.jsonl",
    "dqr_holdout_v8 questions (written blind, never tuned on)": ROOT / "data/questions/dqr_holdout_v8.jsonl",
    "dqr_train_v9 questions (written blind session 45, fit set)": ROOT / "data/questions/dqr_train_v9.jsonl",
    "dqr_holdout_v9 questions (written blind session 45, never tuned on)": ROOT / "data/questions/dqr_holdout_v9.jsonl",
    "dqr_train_v10 questions (written blind session 46, fit set)": ROOT / "data/questions/dqr_train_v10.jsonl",
    "dqr_holdout_v10 questions (written blind session 46, never tuned on)": ROOT / "data/questions/dqr_holdout_v10.jsonl",
    "dqr_train_v11 questions (written blind session 47, fit set)": ROOT / "data/questions/dqr_train_v11.jsonl",
    "dqr_holdout_v11 questions (written blind session 47, never tuned on)": ROOT / "data/questions/dqr_holdout_v11.jsonl",
    "dqr_train_v12 questions (written blind session 48, fit set)": ROOT / "data/questions/dqr_train_v12.jsonl",
    "dqr_holdout_v12 questions (written blind session 48, never tuned on)": ROOT / "data/questions/dqr_holdout_v12.jsonl",
    "dqr_train_v13 questions (written blind session 49, fit set)": ROOT / "data/questions/dqr_train_v13.jsonl",
    "dqr_holdout_v13 questions (written blind session 49, never tuned on)": ROOT / "data/questions/dqr_holdout_v13.jsonl",
    "dqr_train_v14 questions (written blind session 52, fit set)": ROOT / "data/questions/dqr_train_v14.jsonl",
    "dqr_holdout_v14 questions (written blind session 52, never tuned on)": ROOT / "data/questions/dqr_holdout_v14.jsonl",
    "dqr_train_v15 questions (written blind session 53, fit set)": ROOT / "data/questions/dqr_train_v15.jsonl",
    "dqr_holdout_v15 questions (written blind session 53, never tuned on)": ROOT / "data/questions/dqr_holdout_v15.jsonl",
    "dqr_train_v16 questions (written blind session 54, fit set)": ROOT / "data/questions/dqr_train_v16.jsonl",
    "dqr_holdout_v16 questions (written blind session 54, never tuned on)": ROOT / "data/questions/dqr_holdout_v16.jsonl",
    "dqr_train_v17 questions (written blind session 55, fit set)": ROOT / "data/questions/dqr_train_v17.jsonl",
    "dqr_holdout_v17 questions (written blind session 55, never tuned on)": ROOT / "data/questions/dqr_holdout_v17.jsonl",
    "dqr_train_v18 questions (written blind session 56, fit set)": ROOT / "data/questions/dqr_train_v18.jsonl",
    "dqr_holdout_v18 questions (written blind session 56, never tuned on)": ROOT / "data/questions/dqr_holdout_v18.jsonl",
    "dqr_train_v19 questions (written blind session 57, fit set)": ROOT / "data/questions/dqr_train_v19.jsonl",
    "dqr_holdout_v19 questions (written blind session 57, never tuned on)": ROOT / "data/questions/dqr_holdout_v19.jsonl",
    "dqr_train_v20 questions (written blind session 58, fit set)": ROOT / "data/questions/dqr_train_v20.jsonl",
    "dqr_holdout_v20 questions (written blind session 58, never tuned on)": ROOT / "data/questions/dqr_holdout_v20.jsonl",
    "dqr_train_v21 questions (written blind session 59, fit set)": ROOT / "data/questions/dqr_train_v21.jsonl",
    "dqr_holdout_v21 questions (written blind session 59, never tuned on)": ROOT / "data/questions/dqr_holdout_v21.jsonl",
    "dqr_train_v22 questions (written blind session 60, fit set)": ROOT / "data/questions/dqr_train_v22.jsonl",
    "dqr_holdout_v22 questions (written blind session 60, never tuned on)": ROOT / "data/questions/dqr_holdout_v22.jsonl",
    "dqr_train_v23 questions (written blind session 61, fit set)": ROOT / "data/questions/dqr_train_v23.jsonl",
    "dqr_holdout_v23 questions (written blind session 61, never tuned on)": ROOT / "data/questions/dqr_holdout_v23.jsonl",
    "dqr_train_v24 questions (written blind session 62, fit set)": ROOT / "data/questions/dqr_train_v24.jsonl",
    "dqr_holdout_v24 questions (written blind session 62, never tuned on)": ROOT / "data/questions/dqr_holdout_v24.jsonl",
    "dqr_train_v25 questions (written blind session 63, fit set)": ROOT / "data/questions/dqr_train_v25.jsonl",
    "dqr_holdout_v25 questions (written blind session 63, never tuned on)": ROOT / "data/questions/dqr_holdout_v25.jsonl",
    "dqr_train_v26 questions (written blind session 64, fit set)": ROOT / "data/questions/dqr_train_v26.jsonl",
    "dqr_holdout_v26 questions (written blind session 64, never tuned on)": ROOT / "data/questions/dqr_holdout_v26.jsonl",
    "dqr_train_v27 questions (written blind session 65, fit set)": ROOT / "data/questions/dqr_train_v27.jsonl",
    "dqr_holdout_v27 questions (written blind session 65, never tuned on)": ROOT / "data/questions/dqr_holdout_v27.jsonl",
}
CORPORA = ROOT.parent / "shared" / "corpora"


def never_fit(row_id: str, share: float) -> bool:
    """Whether a corpus row belongs to the part nobody fits on (stable across runs and machines)."""
    digest = int(hashlib.sha1(row_id.encode("utf-8")).hexdigest()[:8], 16)
    return digest / 0xFFFFFFFF >= share


def _split_corpus(path: Path, share: float, tmp: Path) -> dict[str, Path]:
    fit, held = tmp / f"{path.stem}.fit.jsonl", tmp / f"{path.stem}.never_fit.jsonl"
    with path.open(encoding="utf-8") as src, fit.open("w", encoding="utf-8") as a, held.open("w", encoding="utf-8") as b:
        for line in src:
            try:
                row_id = str(json.loads(line).get("id", ""))
            except (json.JSONDecodeError, AttributeError):
                row_id = line
            (b if never_fit(row_id, share) else a).write(line)
    return {f"{path.name} (fit part)": fit, f"{path.name} (never fitted)": held}


def _dqr_reach(decisions: Path) -> float | None:
    """The share of a question set's decisions whose owner family is DQR."""
    families = [json.loads(line).get("family") for line in decisions.open(encoding="utf-8") if line.strip()]
    return sum(f == "DQR" for f in families) / len(families) if families else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=None, help="write each run under this folder")
    ap.add_argument("--corpus-fit-share", type=float, default=0.5, help="share of each corpus that fitting may use")
    ap.add_argument("--only", nargs="*", default=None, help="substrings of set names to run")
    args = ap.parse_args(argv)
    runner = TurnRunner()
    with tempfile.TemporaryDirectory() as tmp:
        sets = {k: v for k, v in SETS.items() if v.exists()}
        for corpus in sorted(CORPORA.glob("*.jsonl")) if CORPORA.exists() else []:
            sets.update(_split_corpus(corpus, args.corpus_fit_share, Path(tmp)))
        if args.only:
            sets = {k: v for k, v in sets.items() if any(o in k for o in args.only)}
        print(f"{'set':58s} {'rows':>6s} {'family':>7s} {'actions':>8s} {'false':>6s}")
        results = {}
        for name, path in sets.items():
            out = args.out / path.stem if args.out else Path(tmp) / "runs" / path.stem
            m = run_batch(runner, path, out)
            fam, act = m["family_accuracy"], m["action_exact_match"]
            if fam is None and path.parent.name == "questions":
                m["dqr_reach"] = fam = _dqr_reach(out / "decisions.jsonl")
            print(f"{name:58s} {m['rows']:6d} {'-' if fam is None else f'{fam:.3f}':>7s} "
                  f"{'-' if act is None else f'{act:.3f}':>8s} {m['false_actions']:6d}", flush=True)
            results[name] = {k: m.get(k) for k in ("rows", "family_accuracy", "action_exact_match", "false_actions",
                                                    "dqr_reach", "confusion_matrix")}
    print("(question sets: the family column is the share of questions that reach DQR through the real route)")
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "summary.json").write_text(json.dumps(results, ensure_ascii=False, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

# praat-measure.praat — Praat's reference measurements for RolePrint's speech
# package (docs/speech.md). Runs headless:
#
#   praat --run scripts/praat-measure.praat LIST OUT.json FRAMES
#
# (usually through scripts/praat-measure.sh, which writes LIST). LIST and
# OUT.json must be absolute paths: Praat resolves relative ones against the
# script's folder.
#
# LIST is a text file with one WAV path per line (relative paths are relative
# to the list file's folder and are written to OUT.json as given). For every
# file it measures, with Praat's standard settings:
#   pitch      To Pitch (ac): 0, 75, 15, no, 0.03, 0.45, 0.01, 0.35, 0.14, 600
#              (and, with FRAMES = 1, the "very accurate" yes variant)
#   intensity  To Intensity: 100, 0, yes; Get mean (energy and dB)
#   syllables  de Jong & Wempe (2009) nuclei (intensity at 50 Hz, -25 dB,
#              2 dB dips, 0.3 s pauses; voicing from their To Pitch (ac):
#              0.02, 30, 4, no, 0.03, 0.25, 0.01, 0.35, 0.25, 450, run on a
#              copy resampled to 4 kHz as RolePrint does)
# and writes one JSON object. FRAMES = 1 also writes every pitch and
# intensity frame (for frame-by-frame comparison); 0 only the summaries (for
# timing). Written for RolePrint; Praat is GPL, this script is the project's.

form Measure
	sentence list_file files.txt
	sentence out_file praat.json
	boolean frames 1
endform

silencedb = -25
mindip = 2
minpause = 0.3

list = Read Strings from raw text file: list_file$
nfiles = Get number of strings
listdir$ = replace_regex$(list_file$, "[^/]*$", "", 1)
version$ = praatVersion$
writeFile: out_file$, "{""praat_version"": """, version$, """, ""files"": ["

for ifile to nfiles
	selectObject: list
	name$ = Get string: ifile
	path$ = name$
	if left$(name$, 1) <> "/"
		path$ = listdir$ + name$
	endif
	sound = Read from file: path$
	dur = Get total duration
	rate = Get sampling frequency

	# --- pitch ---
	selectObject: sound
	pitch = To Pitch (ac): 0, 75, 15, "no", 0.03, 0.45, 0.01, 0.35, 0.14, 600
	np = Get number of frames
	pt1 = Get time from frame number: 1
	pdt = Get time step
	nvoiced = Count voiced frames
	meanhz = Get mean: 0, 0, "Hertz"
	medhz = Get quantile: 0, 0, 0.5, "Hertz"
	sdhz = Get standard deviation: 0, 0, "Hertz"
	meanst = Get mean: 0, 0, "semitones re 100 Hz"
	medst = Get quantile: 0, 0, 0.5, "semitones re 100 Hz"
	sdst = Get standard deviation: 0, 0, "semitones"

	# --- intensity ---
	selectObject: sound
	int = To Intensity: 100, 0, "yes"
	ni = Get number of frames
	it1 = Get time from frame number: 1
	idt = Get time step
	imean = Get mean: 0, 0, "energy"
	imeandb = Get mean: 0, 0, "dB"

	# --- syllable nuclei (de Jong & Wempe 2009) ---
	selectObject: sound
	snd4k = Resample: 4000, 50
	vpitch = To Pitch (ac): 0.02, 30, 4, "no", 0.03, 0.25, 0.01, 0.35, 0.25, 450
	selectObject: sound
	int50 = To Intensity: 50, 0, "yes"
	minint = Get minimum: 0, 0, "parabolic"
	maxint = Get maximum: 0, 0, "parabolic"
	max99 = Get quantile: 0, 0, 0.99
	threshold = max99 + silencedb
	if threshold < minint
		threshold = minint
	endif
	silrel = silencedb - (maxint - max99)
	selectObject: sound
	tg = To TextGrid (silences): 100, 0, silrel, minpause, 0.1, "silent", "sounding"
	selectObject: int50
	mat = Down to Matrix
	isnd = To Sound (slice): 1
	pp = To PointProcess (extrema): 1, "yes", "no", "sinc70"
	npeaks = Get number of points
	npk = 0
	for i to npeaks
		selectObject: pp
		t = Get time from index: i
		selectObject: isnd
		v = Get value at time: 1, t, "cubic"
		if v > threshold
			npk += 1
			pkt [npk] = t
			pkv [npk] = v
		endif
	endfor
	nvalid = 0
	if npk > 0
		curt = pkt [1]
		curv = pkv [1]
		for p to npk - 1
			nextt = pkt [p + 1]
			selectObject: int50
			dip = Get minimum: curt, nextt, "none"
			if abs (curv - dip) > mindip
				nvalid += 1
				valid [nvalid] = pkt [p]
			endif
			curt = nextt
			curv = Get value at time: nextt, "nearest"
		endfor
	endif
	nsyl = 0
	nuclei$ = ""
	for i to nvalid
		t = valid [i]
		selectObject: tg
		iv = Get interval at time: 1, t
		lab$ = Get label of interval: 1, iv
		selectObject: vpitch
		f = Get value at time: t, "Hertz", "linear"
		if f <> undefined and lab$ = "sounding"
			nsyl += 1
			if nsyl > 1
				nuclei$ = nuclei$ + ", "
			endif
			nuclei$ = nuclei$ + fixed$ (t, 5)
		endif
	endfor
	# pauses inside the speech span, phonation time
	selectObject: tg
	nint = Get number of intervals: 1
	firsts = 0
	lasts = 0
	phon = 0
	for i to nint
		lab$ = Get label of interval: 1, i
		if lab$ = "sounding"
			if firsts = 0
				firsts = i
			endif
			lasts = i
			te = Get end time of interval: 1, i
			ts = Get start time of interval: 1, i
			phon += te - ts
		endif
	endfor
	pause = 0
	span = 0
	if firsts > 0
		for i from firsts to lasts
			lab$ = Get label of interval: 1, i
			if lab$ = "silent"
				te = Get end time of interval: 1, i
				ts = Get start time of interval: 1, i
				pause += te - ts
			endif
		endfor
		te = Get end time of interval: 1, lasts
		ts = Get start time of interval: 1, firsts
		span = te - ts
	endif

	# --- write ---
	sep$ = ","
	if ifile = 1
		sep$ = ""
	endif
	appendFile: out_file$, sep$, newline$, "{""file"": """, name$, """, ""duration_s"": ", fixed$ (dur, 6), ", ""sample_rate"": ", rate
	appendFile: out_file$, ", ""pitch"": {""frames"": ", np, ", ""t1"": ", fixed$ (pt1, 6), ", ""step"": ", fixed$ (pdt, 6), ", ""voiced"": ", nvoiced
	@num: meanhz
	appendFile: out_file$, ", ""mean_hz"": ", num.s$
	@num: medhz
	appendFile: out_file$, ", ""median_hz"": ", num.s$
	@num: sdhz
	appendFile: out_file$, ", ""std_hz"": ", num.s$
	@num: meanst
	appendFile: out_file$, ", ""mean_st"": ", num.s$
	@num: medst
	appendFile: out_file$, ", ""median_st"": ", num.s$
	@num: sdst
	appendFile: out_file$, ", ""std_st"": ", num.s$
	if frames
		appendFile: out_file$, ", ""f0_hz"": ["
		selectObject: pitch
		for i to np
			f = Get value in frame: i, "Hertz"
			if f = undefined
				f = 0
			endif
			if i > 1
				appendFile: out_file$, ","
			endif
			appendFile: out_file$, fixed$ (f, 4)
		endfor
		appendFile: out_file$, "]"
	endif
	appendFile: out_file$, "}"
	if frames
		# The "very accurate" variant (Gaussian window of 6 periods).
		selectObject: sound
		pacc = To Pitch (ac): 0, 75, 15, "yes", 0.03, 0.45, 0.01, 0.35, 0.14, 600
		npa = Get number of frames
		pat1 = Get time from frame number: 1
		appendFile: out_file$, ", ""pitch_accurate"": {""frames"": ", npa, ", ""t1"": ", fixed$ (pat1, 6), ", ""step"": ", fixed$ (pdt, 6), ", ""f0_hz"": ["
		for i to npa
			f = Get value in frame: i, "Hertz"
			if f = undefined
				f = 0
			endif
			if i > 1
				appendFile: out_file$, ","
			endif
			appendFile: out_file$, fixed$ (f, 4)
		endfor
		appendFile: out_file$, "]}"
		removeObject: pacc
	endif
	appendFile: out_file$, ", ""intensity"": {""frames"": ", ni, ", ""t1"": ", fixed$ (it1, 6), ", ""step"": ", fixed$ (idt, 6)
	appendFile: out_file$, ", ""mean_energy_db"": ", fixed$ (imean, 4), ", ""mean_db"": ", fixed$ (imeandb, 4)
	if frames
		appendFile: out_file$, ", ""db"": ["
		selectObject: int
		for i to ni
			v = Get value in frame: i
			if i > 1
				appendFile: out_file$, ","
			endif
			appendFile: out_file$, fixed$ (v, 4)
		endfor
		appendFile: out_file$, "]"
	endif
	appendFile: out_file$, "}, ""syllables"": {""count"": ", nsyl, ", ""threshold_db"": ", fixed$ (threshold, 4)
	appendFile: out_file$, ", ""phonation_s"": ", fixed$ (phon, 5), ", ""pause_s"": ", fixed$ (pause, 5), ", ""span_s"": ", fixed$ (span, 5)
	appendFile: out_file$, ", ""nuclei_s"": [", nuclei$, "]}}"

	removeObject: sound, pitch, int, int50, tg, mat, isnd, pp, snd4k, vpitch
endfor
appendFile: out_file$, newline$, "]}", newline$
removeObject: list

procedure num: .x
	if .x = undefined
		.s$ = "null"
	else
		.s$ = fixed$ (.x, 5)
	endif
endproc
